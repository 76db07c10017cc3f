/// The dates a property list may hold: finite, from 0000-01-01 to 9999-12-31T23:59:59Z.
///
/// Wider values fit a float64 but no XML or ISO 8601 writer can spell their year in four
/// digits, so a file holding one could never be converted. Year 0 is kept because real
/// writers (biplist's tests) produce it.
public enum PropertyListDateRange {
    /// Seconds from 2001-01-01 back to 0000-01-01T00:00:00Z (proleptic Gregorian).
    public static let earliest: Double = -63_145_526_400
    /// Seconds from 2001-01-01 to 10000-01-01T00:00:00Z (exclusive).
    public static let end: Double = 252_423_993_600

    public static func contains(_ seconds: Double) -> Bool {
        seconds.isFinite && seconds >= earliest && seconds < end
    }
}

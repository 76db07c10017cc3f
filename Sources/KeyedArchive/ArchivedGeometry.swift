/// The geometry an NSValue can hold, with CoreGraphics' and Foundation's field names.
public enum ArchivedGeometry: Sendable, Hashable {
    case point(x: Double, y: Double)
    case size(width: Double, height: Double)
    case rect(x: Double, y: Double, width: Double, height: Double)
    case range(location: Int, length: Int)
    case edgeInsets(top: Double, left: Double, bottom: Double, right: Double)
}

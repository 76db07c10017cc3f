import Foundation
import PropertyList

/// Holds the readers' default to its promise: with `readsBeyondCoreFoundation` on (the
/// default), a reading may differ from Core Foundation's rules only where it says so, with a
/// `.beyondCoreFoundation` warning (GNUstep's values, XML without its byte-order mark, a `>`
/// inside an attribute: docs/parity.md, "Beyond Core Foundation"). The harness compares CF with
/// the readers in CF's mode (`coreFoundationOutcome`), and this check the default reading with
/// that one.
enum BeyondCoreFoundationCheck {
    enum Verdict: Equatable {
        /// The default reading is the CF-mode reading.
        case same
        /// It differs, and says so with a warning.
        case warned
        /// It differs without a warning: a fault.
        case unwarned(String)
    }

    /// The readers' answer with `readsBeyondCoreFoundation` off: what is compared with CF.
    static func coreFoundationOutcome(_ bytes: [UInt8]) -> ParityOutcome {
        var options = PropertyListReadOptions()
        options.readsBeyondCoreFoundation = false
        do {
            let (value, format) = try PropertyListReader(options: options).read(Data(bytes))
            return .accepted(format: ParityFormat(format), value: ParityValue(value))
        } catch {
            return .refused(message: error.description)
        }
    }

    /// The default reading of `bytes` against `coreFoundationMode`, the reading in CF's mode.
    static func verdict(_ bytes: [UInt8], coreFoundationMode: ParityOutcome) -> Verdict {
        var warnings: [PropertyListWarning] = []
        let outcome: ParityOutcome
        do {
            let (value, format) = try PropertyListReader().read(Data(bytes), warnings: &warnings)
            outcome = .accepted(format: ParityFormat(format), value: ParityValue(value))
        } catch {
            outcome = .refused(message: error.description)
        }
        let warned = warnings.contains { $0.code == .beyondCoreFoundation }
        switch (coreFoundationMode, outcome) {
        case (.refused, .refused):
            return .same
        case (.accepted(let f1, let v1), .accepted(let f2, let v2)) where f1 == f2 && v1.canonicalBytes == v2.canonicalBytes:
            return warned ? .unwarned("the same value as in CF's mode, yet a .beyondCoreFoundation warning") : .same
        case (.accepted, .refused(let message)):
            return .unwarned("read in CF's mode, refused by default: \(message)")
        default:
            return warned ? .warned : .unwarned("the default reading differs from CF's mode without a .beyondCoreFoundation warning: \(outcome.summary)")
        }
    }
}

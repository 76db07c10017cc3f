import Foundation

/// The system's reason for an errno, in our style: lower case, as in `cannot write out.plist:
/// no space left on device`. Foundation's own words ("The file doesn't exist.",
/// "NSCocoaErrorDomain error 512") never reach a message.
enum SystemError {
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file or folder"
        case EACCES, EPERM: return "permission denied"
        case ENOSPC: return "no space left on device"
        case EROFS: return "read-only file system"
        case EISDIR: return "is a folder"
        case ENOTDIR: return "a part of the path is not a folder"
        case EDQUOT: return "disk quota exceeded"
        case EIO: return "input/output error"
        case EFBIG: return "file too large"
        default:
            let text = String(cString: strerror(code))
            guard let first = text.first else { return "error \(code)" }
            return first.lowercased() + text.dropFirst()
        }
    }
}

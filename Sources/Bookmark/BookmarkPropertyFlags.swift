import Foundation

/// A resource or volume property record (`0x1010`, `0x2020`): 8 bytes of flags, 8 bytes saying
/// which flags are valid, 8 reserved bytes; the flags' names from CFURL's private header.
public struct BookmarkPropertyFlags: Sendable, Hashable {
    public var flags: UInt64
    /// Which bits of `flags` were asked for and are known.
    public var validFlags: UInt64
    /// The names of the set bits that are also valid, lowest bit first; unnamed bits as `0x…`.
    public var names: [String]

    /// Nil when `data` is shorter than the two words.
    public init?(_ data: Data, names table: [(UInt64, String)]) {
        guard data.count >= 16 else { return nil }
        func word(_ at: Int) -> UInt64 {
            (0..<8).reduce(UInt64(0)) { $0 | UInt64(data[data.startIndex + at + $1]) << (8 * $1) }
        }
        flags = word(0)
        validFlags = word(8)
        names = flagNames(flags & validFlags, table: table)
    }

    public init(flags: UInt64, validFlags: UInt64, names: [String]) {
        self.flags = flags
        self.validFlags = validFlags
        self.names = names
    }

    /// `kCFURLResource…` flags.
    public static let resourceNames: [(UInt64, String)] = [
        (0x1, "isRegularFile"), (0x2, "isDirectory"), (0x4, "isSymbolicLink"), (0x8, "isVolume"), (0x10, "isPackage"),
        (0x20, "isSystemImmutable"), (0x40, "isUserImmutable"), (0x80, "isHidden"), (0x100, "hasHiddenExtension"),
        (0x200, "isApplication"), (0x400, "isCompressed"), (0x800, "canSetHiddenExtension"), (0x1000, "isReadable"),
        (0x2000, "isWriteable"), (0x4000, "isExecutable"), (0x8000, "isAliasFile"), (0x10000, "isMountTrigger"),
    ]

    /// `kCFURLVolume…` flags.
    public static let volumeNames: [(UInt64, String)] = [
        (0x1, "isLocal"), (0x2, "isAutomount"), (0x4, "dontBrowse"), (0x8, "isReadOnly"), (0x10, "isQuarantined"),
        (0x20, "isEjectable"), (0x40, "isRemovable"), (0x80, "isInternal"), (0x100, "isExternal"), (0x200, "isDiskImage"),
        (0x400, "isFileVault"), (0x800, "isLocaliDiskMirror"), (0x1000, "isiPod"), (0x2000, "isiDisk"), (0x4000, "isCD"),
        (0x8000, "isDVD"), (0x10000, "isDeviceFileSystem"), (0x1_0000_0000, "supportsPersistentIDs"),
        (0x2_0000_0000, "supportsSearchFS"), (0x4_0000_0000, "supportsExchange"), (0x10_0000_0000, "supportsSymbolicLinks"),
        (0x20_0000_0000, "supportsDenyModes"), (0x40_0000_0000, "supportsCopyFile"), (0x80_0000_0000, "supportsReadDirAttr"),
        (0x100_0000_0000, "supportsJournaling"), (0x200_0000_0000, "supportsRename"), (0x400_0000_0000, "supportsFastStatFS"),
        (0x800_0000_0000, "supportsCaseSensitiveNames"), (0x1000_0000_0000, "supportsCasePreservedNames"),
        (0x2000_0000_0000, "supportsFLock"), (0x4000_0000_0000, "hasNoRootDirectoryTimes"),
        (0x8000_0000_0000, "supportsExtendedSecurity"), (0x1_0000_0000_0000, "supports2TBFileSize"),
        (0x2_0000_0000_0000, "supportsHardLinks"), (0x4_0000_0000_0000, "supportsMandatoryByteRangeLocks"),
        (0x8_0000_0000_0000, "supportsPathFromID"), (0x20_0000_0000_0000, "isJournaling"),
        (0x40_0000_0000_0000, "supportsSparseFiles"), (0x80_0000_0000_0000, "supportsZeroRuns"),
        (0x100_0000_0000_0000, "supportsVolumeSizes"), (0x200_0000_0000_0000, "supportsRemoteEvents"),
        (0x400_0000_0000_0000, "supportsHiddenFiles"), (0x800_0000_0000_0000, "supportsDecmpFSCompression"),
        (0x1000_0000_0000_0000, "has64BitObjectIDs"),
    ]
}

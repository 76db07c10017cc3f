import ArchivePayload

/// An allow-list and the verdicts it has made so far, shared by the columns judged by it.
public struct AllowListJudge: Sendable {
    public let checker: AllowListChecker
    let verdicts: ClassVerdictCache

    public init(allowList: AllowList) {
        checker = AllowListChecker(allowList: allowList)
        verdicts = ClassVerdictCache(checker: checker)
    }
}

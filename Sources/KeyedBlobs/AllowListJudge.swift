import ArchivePayload

/// An allow-list and the verdicts it has made so far, shared by the columns judged by it.
///
/// One reference (the verdicts, which hold the checker): a scan hands the judge to every value
/// it counts, and a copy then costs one retain.
public struct AllowListJudge: Sendable {
    let verdicts: ClassVerdictCache

    public var checker: AllowListChecker { verdicts.checker }

    public init(allowList: AllowList) {
        verdicts = ClassVerdictCache(checker: AllowListChecker(allowList: allowList))
    }
}

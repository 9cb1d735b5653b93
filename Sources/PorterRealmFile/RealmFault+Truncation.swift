import PorterModel
extension RealmFault {
    /// A file shorter than its own header or top array says: a copy cut short (the usual cause),
    /// or, rarely, a file copied while an app was still writing it.
    static func truncated(expected: Int64, size: Int) -> RealmFault {
        RealmFault(
            "expected at least \(expected) bytes, the file has \(size): "
                + "the copy was cut short — copy it again with the app closed")
    }
}

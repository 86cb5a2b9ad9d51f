/// How an input is named in messages: a URL's password is never printed.
public enum MediaInputName {
    /// `input` with the password of a `scheme://user:password@host` URL replaced by `***`.
    public static func redacted(_ input: String) -> String {
        guard let schemeEnd = input.firstRange(of: "://") else { return input }
        let rest = input[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return input }
        let userInfo = authority[..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return input }
        return String(input[..<colon]) + ":***" + String(input[at...])
    }

    /// Whether `input` names a network stream (a URL with a scheme other than `file`).
    public static func isNetworkURL(_ input: String) -> Bool {
        guard let schemeEnd = input.firstRange(of: "://") else { return false }
        let scheme = input[..<schemeEnd.lowerBound].lowercased()
        return !scheme.isEmpty && scheme != "file"
            && scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
    }
}

/// How sweep names where an item is. Each step is written after the item that holds it:
///
/// - a folder's file: the path as given, `dump/private/var/mobile/Library/Prefs.plist`;
/// - a container's member: `!/` and the member's name, `extraction.tar!/private/var/…`;
/// - a database cell: `#TABLE.COLUMN[KEY=VALUE]`, `Store.sqlite#ZNOTE.ZDATA[Z_PK=12]`, where KEY
///   is `Z_PK` in Core Data tables and `rowid` otherwise (`row` counts rows in a table without
///   one);
/// - a document inside another's data: `/` and its key path from the root,
///   `…[Z_PK=12]/root.attachments[0]`: `.key` for a field or dictionary key (`["key"]` when the
///   key holds a character that would be ambiguous), `[N]` for an element.
public enum SweepPath {
    public static func member(_ container: String, _ name: String) -> String {
        container + "!/" + name
    }

    public static func cell(_ database: String, table: String, column: String, key: String, value: Int64) -> String {
        "\(database)#\(table).\(column)[\(key)=\(value)]"
    }

    public static func nested(_ document: String, keyPath: String) -> String {
        document + "/" + keyPath
    }

    /// One key-path step for a key: `.name`, or `["a.b"]` when the key holds `.`, `[`, `]`,
    /// `/`, `!`, `#`, `"`, a space or a control character, or is empty.
    public static func keyStep(_ key: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && !".[]/!#\"".unicodeScalars.contains(scalar) && scalar.value != 0x7F
        }
        if plain { return "." + key }
        var quoted = "[\""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    quoted += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\"]"
    }
}

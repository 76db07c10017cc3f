/// PlistBuddy's usage line and command guide, in Archivist's words with PlistBuddy's layout
/// (the sections, commands and types a reader of the Mac's guide looks for).
public enum PlistBuddyHelp {
    /// What `PlistBuddy` with no file prints (status 1).
    public static func usage(_ program: String) -> String {
        """
        Usage: \(program) [-cxlh] <file.plist>
            -c "<command>" run the command and exit; repeat for more; without -c, read commands interactively
            -x print values as an XML property list
            -l refuse a file path that is a symbolic link instead of following it
            -h print the command guide below


        """
    }

    /// What `Help` and `-h` print.
    public static let guide = """
        Command Format:
            Help - Prints this guide
            Exit - Leaves the program without saving changes
            Save - Writes the changes to the file
            Revert - Reads the file again, dropping changes not saved
            Clear [<Type>] - Replaces everything with an empty root of Type (dict by default)
            Print [<Entry>] - Prints the value of Entry, or the whole file
            Set <Entry> <Value> - Gives Entry the new Value, keeping its type
            Add <Entry> <Type> [<Value>] - Adds Entry, of Type, with Value
            Copy <EntrySrc> <EntryDst> - Copies the value at EntrySrc to EntryDst
            Delete <Entry> - Removes Entry
            Merge <file.plist> [<Entry>] - Adds the entries of file.plist to Entry
            Import <Entry> <file> - Sets or creates Entry with the bytes of file

        Entry Format:
            Key names separated by colons; array elements by their index, from 0.
            A leading colon starts at the root. Examples:
                :CFBundleShortVersionString
                :CFBundleDocumentTypes:2:CFBundleTypeExtensions

        Types:
            string
            array
            dict
            bool
            real
            integer
            date
            data

        Examples:
            Set :CFBundleIdentifier com.example.app
                Sets CFBundleIdentifier to com.example.app
            Add :CFBundleGetInfoString string "App version 1.0.1"
                Adds the string CFBundleGetInfoString
            Add :CFBundleDocumentTypes: dict
                Appends a dictionary to the CFBundleDocumentTypes array
            Add :CFBundleDocumentTypes:0 dict
                Inserts a dictionary at the start of the array
            Delete :CFBundleDocumentTypes:0
                Removes the array's first element
            Delete :CFBundleDocumentTypes
                Removes the whole CFBundleDocumentTypes array


        """
}

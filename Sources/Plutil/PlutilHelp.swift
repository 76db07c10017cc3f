/// The usage `plutil -help` prints: the same commands and options as macOS's, in our words.
enum PlutilHelp {
    static func text(_ name: String) -> String {
        """
        \(name): [command_option] [other_options] file...
        A file of - is standard input. This is Archivist's plutil for Linux.
        Command options (-lint when none is given):
         -help                         print this help and exit
         -lint                         check that each file is a valid property list
         -convert fmt                  rewrite each file in format fmt: xml1 binary1 json swift objc
                                       (objc -header also writes a .h file)
         -insert keypath -type value   add a value before writing the file back
                                       keypath: keys separated by dots (\\. is a dot in a key); a number
                                       indexes an array, and as the last component inserts at that index
                                       type: -bool (YES if value is YES or true, else NO), -integer,
                                       -float, -string, -date (as in XML plists), -data (base64),
                                       -xml (a plist), -json (a JSON fragment), -array and -dictionary
                                       (empty, no value); -append adds to the array at keypath
         -replace keypath -type value  as -insert, but overwrites what is at keypath
         -remove keypath               remove the value at keypath before writing the file back
         -extract keypath fmt          write the value at keypath as a document of format fmt:
                                       xml1 binary1 json raw; -expect type fails unless the value is
                                       bool, integer, float, string, date, data, dictionary or array
                                       raw prints bool as true or false, numbers as such, a string as
                                       it is, a date in ISO 8601 (UTC), data in base64, a dictionary's
                                       keys one per line and an array's count, to standard output
         -type keypath                 print the type of the value at keypath (-expect type as above)
         -create fmt                   write an empty property list of format fmt to each file
         -p                            print each file for people (not a stable format)
        Other options, for -convert, -insert, -replace, -remove and -extract:
         -s                            print nothing on success
         -o path                       write the result here (- is standard output); with several
                                       files, the last one wins
         -e extension                  give converted files this extension
         -r                            indent JSON output, keys sorted
         -n                            no line break after raw or type output
         --                            every later argument is a file

        """
    }
}

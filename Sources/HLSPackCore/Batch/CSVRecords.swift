/// Splits CSV text into records as RFC 4180 §2 defines them: fields separated
/// by commas, records by CRLF or LF, a field in double quotes may hold commas,
/// line breaks and doubled quotes. Each record keeps the line it starts on, for
/// errors that name it.
enum CSVRecords {
  struct Record: Equatable {
    var line: Int
    var fields: [String]
  }

  struct Failure: Error, Equatable {
    var line: Int
    var message: String
  }

  static func parse(_ text: String) throws -> [Record] {
    var records: [Record] = []
    var fields: [String] = []
    var field = ""
    var line = 1
    var recordLine = 1
    var inQuotes = false
    var quotedField = false
    var scalars = text.unicodeScalars.makeIterator()
    var pending: Unicode.Scalar? = nil

    func endRecord() {
      fields.append(field)
      // A line with nothing on it is no record (a trailing newline, a blank line).
      if !(fields.count == 1 && fields[0].isEmpty && !quotedField) {
        records.append(Record(line: recordLine, fields: fields))
      }
      fields = []
      field = ""
      quotedField = false
    }

    while let c = pending ?? scalars.next() {
      pending = nil
      if inQuotes {
        if c == "\"" {
          let next = scalars.next()
          if next == "\"" {
            field.unicodeScalars.append("\"")
          } else {
            inQuotes = false
            pending = next
          }
        } else {
          if c == "\n" { line += 1 }
          field.unicodeScalars.append(c)
        }
        continue
      }
      switch c {
      case "\"":
        guard field.isEmpty, !quotedField else {
          throw Failure(
            line: line, message: "a double quote inside an unquoted field (quote the whole field and double the quote)")
        }
        inQuotes = true
        quotedField = true
      case ",":
        fields.append(field)
        field = ""
        quotedField = false
      case "\r":
        let next = scalars.next()
        guard next == "\n" else {
          throw Failure(line: line, message: "a carriage return not followed by a line feed")
        }
        endRecord()
        line += 1
        recordLine = line
      case "\n":
        endRecord()
        line += 1
        recordLine = line
      default:
        guard !quotedField else {
          throw Failure(line: line, message: "text after the closing double quote of a field")
        }
        field.unicodeScalars.append(c)
      }
    }
    if inQuotes { throw Failure(line: recordLine, message: "a quoted field is never closed") }
    if !field.isEmpty || !fields.isEmpty || quotedField { endRecord() }
    return records
  }
}

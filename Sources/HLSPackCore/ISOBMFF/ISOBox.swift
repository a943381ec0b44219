/// One box of an ISO-BMFF buffer, located by offsets into that buffer
/// (ISO/IEC 14496-12 §4.2). Reading never copies the payload.
public struct ISOBox: Equatable, Sendable {
  /// The four-character type, e.g. "moof".
  public var type: String
  /// Offset of the box's first byte (its size field).
  public var start: Int
  /// Offset of the first payload byte (after size, type and any largesize).
  public var payload: Int
  /// Offset just past the box.
  public var end: Int

  package init(type: String, start: Int, payload: Int, end: Int) {
    (self.type, self.start, self.payload, self.end) = (type, start, payload, end)
  }

  public var size: Int { end - start }
  public var range: Range<Int> { start..<end }
  public var payloadRange: Range<Int> { payload..<end }

  /// The boxes that tile `range` of `bytes` exactly; throws on a size that
  /// overruns its parent or leaves a partial header behind.
  public static func children(of bytes: [UInt8], in range: Range<Int>, context: String) throws -> [ISOBox] {
    var boxes: [ISOBox] = []
    var offset = range.lowerBound
    while offset < range.upperBound {
      guard offset + 8 <= range.upperBound else {
        throw MediaFormatError.malformedBox("\(context): \(range.upperBound - offset) stray bytes at offset \(offset)")
      }
      let type = fourCC(bytes, offset + 4)
      var size = Int(BigEndian.u32(bytes, offset))
      var header = 8
      if size == 1 {
        guard offset + 16 <= range.upperBound else {
          throw MediaFormatError.malformedBox("\(context): box '\(type)' at \(offset) is cut short")
        }
        let large = BigEndian.u64(bytes, offset + 8)
        guard large <= UInt64(Int.max) else {
          throw MediaFormatError.malformedBox("\(context): box '\(type)' at \(offset) is too large")
        }
        size = Int(large)
        header = 16
      } else if size == 0 {
        // The last box of the file, up to its end (ISO/IEC 14496-12 §4.2). Inside a
        // container it would also swallow whatever is inserted after it there.
        guard range == bytes.indices else {
          throw MediaFormatError.malformedBox(
            "\(context): box '\(type)' at offset \(offset) has size 0, which only a top-level box may have")
        }
        size = range.upperBound - offset
      }
      guard size >= header, size <= range.upperBound - offset else {
        throw MediaFormatError.malformedBox(
          "\(context): box '\(type)' at offset \(offset) has size \(size), \(range.upperBound - offset) bytes remain")
      }
      boxes.append(ISOBox(type: type, start: offset, payload: offset + header, end: offset + size))
      offset += size
    }
    return boxes
  }

  /// The only child of `type`; throws when it is missing or repeated.
  public static func single(_ type: String, in boxes: [ISOBox], context: String) throws -> ISOBox {
    let found = boxes.filter { $0.type == type }
    guard found.count == 1, let box = found.first else {
      throw MediaFormatError.malformedBox("\(context): expected one '\(type)' box, found \(found.count)")
    }
    return box
  }

  /// Bytes to insert at `offset`, inside every box of `enclosing`.
  struct Insertion {
    var offset: Int
    var bytes: [UInt8]
    var enclosing: [ISOBox]
  }

  /// `bytes` with each insertion made and every enclosing box grown by it.
  static func inserting(_ insertions: [Insertion], into bytes: [UInt8]) throws -> [UInt8] {
    var out = bytes
    // From the back, so that earlier offsets stay valid.
    for insertion in insertions.sorted(by: { $0.offset > $1.offset }) {
      for box in insertion.enclosing { try box.grow(by: insertion.bytes.count, in: &out) }
      out.insert(contentsOf: insertion.bytes, at: insertion.offset)
    }
    return out
  }

  /// Adds `delta` to this box's size field in `bytes`, for bytes inserted inside it.
  private func grow(by delta: Int, in bytes: inout [UInt8]) throws {
    if payload - start == 16 {
      BigEndian.put64(BigEndian.u64(bytes, start + 8) + UInt64(delta), into: &bytes, at: start + 8)
      return
    }
    let size = Int(BigEndian.u32(bytes, start))
    guard size != 0 else { throw MediaFormatError.unsupportedBox("'\(type)' with size 0 (to end of file) cannot grow") }
    guard size + delta <= Int(UInt32.max) else { throw MediaFormatError.unsupportedBox("'\(type)' would exceed 4 GiB") }
    BigEndian.put32(UInt32(size + delta), into: &bytes, at: start)
  }

  package static func fourCC(_ bytes: [UInt8], _ offset: Int) -> String {
    String(
      decoding: bytes[offset..<offset + 4].map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
  }
}

/// Big-endian integer access with the bounds checked by the caller's box walk.
package enum BigEndian {
  package static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) << 8 | UInt16(b[i + 1]) }

  package static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
  }

  package static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) << 32 | UInt64(u32(b, i + 4)) }

  package static func put32(_ value: UInt32, into b: inout [UInt8], at i: Int) {
    b[i] = UInt8(truncatingIfNeeded: value >> 24)
    b[i + 1] = UInt8(truncatingIfNeeded: value >> 16)
    b[i + 2] = UInt8(truncatingIfNeeded: value >> 8)
    b[i + 3] = UInt8(truncatingIfNeeded: value)
  }

  package static func put64(_ value: UInt64, into b: inout [UInt8], at i: Int) {
    put32(UInt32(truncatingIfNeeded: value >> 32), into: &b, at: i)
    put32(UInt32(truncatingIfNeeded: value), into: &b, at: i + 4)
  }
}

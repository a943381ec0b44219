/// H.264/HEVC Annex B byte streams: where the NAL units are, and start-code
/// emulation prevention (H.264 7.4.1, B.1; H.265 7.4.2, B.2). The one reader
/// of Annex B for codec strings, parameter sets, random access and SAMPLE-AES.
public enum AnnexB {
  /// The NAL units of `bytes` (without start codes), as slices of it; bytes
  /// before the first start code are skipped.
  public static func nalUnits(in bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    bytes.withUnsafeBufferPointer { buffer in
      var scanner = Scanner(buffer, from: Scanner.startCode(in: buffer, from: 0))
      var units: [ArraySlice<UInt8>] = []
      while let nal = scanner.next() { units.append(bytes[nal]) }
      return units
    }
  }

  /// Finds the NAL units of an Annex B access unit without copying it.
  ///
  /// A NAL unit runs from the byte after a `00 00 01` to the next `00 00 01`,
  /// minus any zero bytes before that start code: the leading zero of a 4-byte
  /// start code and any trailing_zero_8bits belong to no NAL unit (H.264 B.1,
  /// and a NAL unit never ends in 0x00). Everything that is not a NAL unit (start
  /// codes, zeros) is left to the callers, so 3- and 4-byte start codes survive
  /// as they were.
  public struct Scanner {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var nextPayload: Int?

    /// Fails unless the access unit opens with a start code (leading zero bytes
    /// allowed): bytes before it would otherwise pass through unnoticed.
    public init(accessUnit bytes: UnsafeBufferPointer<UInt8>) throws {
      guard let first = Self.startCode(in: bytes, from: 0) else {
        if bytes.isEmpty {
          self.init(bytes, from: nil)
          return
        }
        throw FramingError.missingStartCode
      }
      for i in 0..<first where bytes[i] != 0 { throw FramingError.missingStartCode }
      self.init(bytes, from: first)
    }

    /// `firstStartCode`: where the first `00 00 01` is, if anywhere.
    @usableFromInline init(_ bytes: UnsafeBufferPointer<UInt8>, from firstStartCode: Int?) {
      self.bytes = bytes
      nextPayload = firstStartCode.map { $0 + 3 }
    }

    /// The next NAL unit's byte range (never empty), or nil at the end.
    /// Inlinable, as `appendEscaped`: SAMPLE-AES runs both over every video
    /// byte from another module, where a call per NAL unit and per piece
    /// would weigh on every byte (docs/design/sample-aes-inlining.md).
    @inlinable public mutating func next() -> Range<Int>? {
      while let start = nextPayload {
        let code = Self.startCode(in: bytes, from: start)
        nextPayload = code.map { $0 + 3 }
        var end = code ?? bytes.count
        while end > start, bytes[end - 1] == 0 { end -= 1 }
        if end > start { return start..<end }
      }
      return nil
    }

    /// Index of the first `00 00 01` at or after `from`.
    @inlinable static func startCode(in p: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
      var i = from
      // Look at the third byte first: anything above 1 there rules out a start
      // code at i, i+1 and i+2, so most of a slice is skipped three bytes at a time.
      while i + 2 < p.count {
        let third = p[i + 2]
        if third > 1 {
          i += 3
        } else if third == 0 {
          i += 1
        } else {
          if p[i] == 0, p[i + 1] == 0 { return i }
          i += 3
        }
      }
      return nil
    }
  }
}

extension AnnexB {
  /// The RBSP of a NAL unit: every 0x03 that follows two zero bytes removed.
  public static func removingEmulationPrevention(_ nal: ArraySlice<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(nal.count)
    nal.withUnsafeBufferPointer { appendUnescaped($0, to: &out) }
    return out
  }

  /// Appends `nal` with one layer of `00 00 03` removed.
  public static func appendUnescaped(_ nal: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    var copied = 0
    var zeros = 0
    for i in 0..<nal.count {
      let byte = nal[i]
      if zeros >= 2, byte == 3 {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: nal[copied..<i]))
        copied = i + 1
        zeros = 0
        continue
      }
      zeros = byte == 0 ? zeros + 1 : 0
    }
    out.append(contentsOf: UnsafeBufferPointer(rebasing: nal[copied...]))
  }

  /// Appends `piece` with emulation prevention applied; `zeros` carries the
  /// run of zero bytes from the previous piece, because a NAL unit assembled
  /// from pieces (SAMPLE-AES: clear runs and encrypted blocks) is escaped as
  /// one whole. SAMPLE-AES escapes NAL bytes that are already escaped, so an
  /// existing `00 00 03` becomes `00 00 03 03`; a decryptor strips exactly one
  /// layer (Apple, MPEG-2 Stream Encryption Format for HTTP Live Streaming, 2.2.2).
  @inlinable public static func appendEscaped(
    _ piece: UnsafeBufferPointer<UInt8>, zeros: inout Int, to out: inout [UInt8]
  ) {
    var run = zeros  // a local keeps the per-byte loop in registers
    var copied = 0
    for i in 0..<piece.count {
      let byte = piece[i]
      if run >= 2, byte <= 3 {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: piece[copied..<i]))
        out.append(3)
        copied = i
        run = 0
      }
      run = byte == 0 ? run + 1 : 0
    }
    out.append(contentsOf: UnsafeBufferPointer(rebasing: piece[copied...]))
    zeros = run
  }
}

/// Why an elementary stream's framing could not be read. Every refusal is an
/// error rather than a pass-through: SAMPLE-AES media left clear by mistake
/// would still play and nobody would notice.
public enum FramingError: Error, CustomStringConvertible, Equatable, Sendable {
  /// An H.264 access unit that does not open with an Annex B start code.
  case missingStartCode
  /// An ADTS frame that cannot be delimited (bad syncword, frame_length).
  case adts(offset: Int, reason: String)
  /// An AC-3 syncframe that cannot be delimited (syncword, fscod, frmsizecod, bsid).
  case ac3(offset: Int, reason: String)

  public var description: String {
    switch self {
    case .missingStartCode: "H.264 access unit does not start with an Annex B start code"
    case .adts(let offset, let reason): "ADTS frame at byte \(offset): \(reason)"
    case .ac3(let offset, let reason): "AC-3 syncframe at byte \(offset): \(reason)"
    }
  }
}

import HLSPackCore

/// Reads a clear MPEG-TS segment piece by piece (ISO/IEC 13818-1 §2.4.3) for
/// the bitstream rules, keeping little: the PAT and PMT, each PID's last
/// continuity_counter, the PES headers' timestamps, the first video access
/// unit, and the audio PES payloads (small, and needed to count frames).
/// SAMPLE-AES payloads are decrypted through `checker` as they complete.
public struct TransportStreamInspector {
  let checker: (any SamplePayloadChecking)?
  private var carry: [UInt8] = []
  private var packets = 0
  private var programMapPIDs: Set<UInt16> = []
  var streams: [UInt16: ElementaryStream] = [:]
  /// Last continuity_counter per PID; 0xFF until the PID's first packet.
  private var lastCounter = [UInt8](repeating: 0xFF, count: 8192)
  private var continuityBreaks = 0
  private var videoPTS: [Int64] = []
  /// The segment's first PES timestamp, against which later ones are unwrapped.
  private var timestampOrigin: Int64?
  var audio: (first: Int64, end: Int64)?
  var audioFrameDuration: Int64?
  var facts = SegmentMediaFacts()
  var sampleAESProblem: String?

  public init(checker: (any SamplePayloadChecking)?) { self.checker = checker }

  public mutating func consume(_ bytes: ArraySlice<UInt8>) {
    var rest = bytes
    if !carry.isEmpty {
      let take = min(188 - carry.count, rest.count)
      carry += rest.prefix(take)
      rest = rest.dropFirst(take)
      guard carry.count == 188 else { return }
      let packet = carry
      carry = []
      packet.withUnsafeBufferPointer { read(packet: $0) }
    }
    let whole = rest.count / 188 * 188
    rest.withUnsafeBufferPointer { buffer in
      for start in stride(from: 0, to: whole, by: 188) {
        read(packet: UnsafeBufferPointer(rebasing: buffer[start..<start + 188]))
      }
    }
    carry = Array(rest.suffix(rest.count - whole))
  }

  /// Reads only the PAT and PMT of `bytes`, whole packets from the start of
  /// a segment: an I-frame range leaves out its Media Initialization Section,
  /// which a client takes from the start of the resource (RFC 8216bis
  /// §4.4.3.6), so the range's own packets are read against these tables.
  public mutating func consumeProgramTables(_ bytes: ArraySlice<UInt8>) {
    Array(bytes).withUnsafeBufferPointer { buffer in
      for start in stride(from: 0, to: buffer.count / 188 * 188, by: 188) {
        let p = UnsafeBufferPointer(rebasing: buffer[start..<start + 188])
        let pid = TransportStreamPacketHeader.pid(p, at: 0)
        let control = p[3] >> 4 & 3
        let payloadStart = control & 2 != 0 ? 5 + Int(p[4]) : 4
        guard p[0] == 0x47, p[1] & 0x40 != 0, control & 1 != 0, payloadStart < 188,
          pid == 0 || programMapPIDs.contains(pid)
        else { continue }
        readSection(pid: pid, UnsafeBufferPointer(rebasing: p[payloadStart..<188]))
      }
    }
  }

  private mutating func read(packet p: UnsafeBufferPointer<UInt8>) {
    packets += 1
    // A lost sync byte is segment.ts-sync-lost's, reported by TransportStreamScanner.
    guard p[0] == 0x47 else { return }
    let pid = TransportStreamPacketHeader.pid(p, at: 0)
    guard pid != 0x1FFF else { return }
    let control = p[3] >> 4 & 3
    var start = 4
    var discontinuity = false
    if control & 2 != 0 {
      let length = Int(p[4])
      if length > 0 { discontinuity = p[5] & 0x80 != 0 }
      start = 5 + length
    }
    checkContinuity(pid: pid, counter: p[3] & 0x0F, payload: control & 1 != 0, discontinuity: discontinuity)
    guard control & 1 != 0, start < 188 else { return }
    let payload = UnsafeBufferPointer(rebasing: p[start..<188])
    let unitStart = p[1] & 0x40 != 0
    if let stream = streams[pid] {
      if unitStart { startPES(stream, payload) } else if stream.collecting { stream.payload += payload }
    } else if unitStart, pid == 0 || programMapPIDs.contains(pid) {
      readSection(pid: pid, payload)
    }
  }

  /// ISO/IEC 13818-1 §2.4.3.3: the counter goes up by one per packet with a
  /// payload; a packet may be sent twice; discontinuity_indicator resets it.
  private mutating func checkContinuity(pid: UInt16, counter: UInt8, payload: Bool, discontinuity: Bool) {
    let last = lastCounter[Int(pid)]
    lastCounter[Int(pid)] = counter
    guard last != 0xFF, payload, !discontinuity, counter != (last + 1) & 0x0F, counter != last else { return }
    continuityBreaks += 1
    if continuityBreaks == 1 {
      facts.problems.append(
        SegmentProblem(
          VerifyRules.segmentTSContinuity,
          "PID 0x\(String(pid, radix: 16)): continuity_counter \(counter) follows \(last) in packet \(packets)"))
    }
  }

  /// PAT or PMT in a packet that starts a section (after its pointer_field).
  private mutating func readSection(pid: UInt16, _ payload: UnsafeBufferPointer<UInt8>) {
    guard let pointer = payload.first, 1 + Int(pointer) < payload.count else { return }
    let section = Array(payload[(1 + Int(pointer))...])
    if pid == 0 {
      if let pids = try? PATSection.programMapPIDs(section) { programMapPIDs = Set(pids) }
      return
    }
    guard let pmt = try? PMTSection(parsing: section) else { return }
    for entry in pmt.streams where streams[entry.pid] == nil {
      if ElementaryStream.Kind.isUnreadAudio(streamType: entry.streamType) { facts.audioUnidentified = true }
      if let kind = ElementaryStream.Kind(streamType: entry.streamType) {
        streams[entry.pid] = ElementaryStream(kind: kind, encrypted: entry.streamType & 0xC0 == 0xC0)
      }
    }
  }

  private mutating func startPES(_ stream: ElementaryStream, _ payload: UnsafeBufferPointer<UInt8>) {
    finishPES(stream)
    // PES_packet: start code, stream_id, length, two flag bytes, header length (§2.4.3.6).
    guard payload.count >= 9, payload[0] == 0, payload[1] == 0, payload[2] == 1 else { return }
    let headerEnd = 9 + Int(payload[8])
    stream.pts = payload[7] & 0x80 != 0 && payload.count >= 14 ? unwrapped(Self.timestamp(payload, at: 9)) : nil
    stream.units += 1
    if stream.kind.isVideo, let pts = stream.pts { videoPTS.append(pts) }
    // Video: only the first access unit; audio: every frame, to count them.
    stream.collecting = !stream.kind.isVideo || stream.units == 1
    stream.payload.removeAll(keepingCapacity: true)
    if stream.collecting, headerEnd < payload.count { stream.payload += payload[headerEnd...] }
  }

  /// The 33-bit PTS or DTS at `offset` (§2.4.3.7).
  static func timestamp(_ b: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int64 {
    let high = Int64(b[offset] >> 1 & 0x07) << 30
    let middle = Int64(b[offset + 1]) << 22 | Int64(b[offset + 2] >> 1) << 15
    return high | middle | Int64(b[offset + 3]) << 7 | Int64(b[offset + 4] >> 1)
  }

  /// A 33-bit timestamp that wrapped to 0 after the segment's first one
  /// stays after it (and one before the wrap stays before it), so that a
  /// segment crossing 2^33 / 90 kHz (26.5 hours) keeps its real duration.
  private mutating func unwrapped(_ timestamp: Int64) -> Int64 {
    guard let origin = timestampOrigin else {
      timestampOrigin = timestamp
      return timestamp
    }
    let modulus = SegmentMediaFacts.transportStreamTimestampModulus
    if timestamp - origin < -modulus / 2 { return timestamp + modulus }
    if timestamp - origin > modulus / 2 { return timestamp - modulus }
    return timestamp
  }

  private mutating func finishPES(_ stream: ElementaryStream) {
    guard stream.collecting, !stream.payload.isEmpty else { return }
    stream.collecting = false
    // SAMPLE-AES E-AC-3 is left encrypted: where its IV restarts is disputed
    // (docs/conformance.md); its syncframe headers stay clear all the same.
    if stream.encrypted, stream.kind != .eac3, let checker, sampleAESProblem == nil {
      do {
        try checker.decryptSampleAES(&stream.payload, kind: stream.kind.sampleKind)
      } catch {
        sampleAESProblem = "\(stream.kind.name) PES \(stream.units): \(error)"
        return
      }
    }
    if stream.kind.isVideo {
      readFirstAccessUnit(stream)
    } else {
      readAudio(stream)
    }
  }

  public mutating func finish() -> SegmentMediaFacts {
    for pid in streams.keys.sorted() { streams[pid].map { finishPES($0) } }
    if let sampleAESProblem {
      facts.problems.append(SegmentProblem(VerifyRules.segmentSampleAESUndecryptable, sampleAESProblem))
    }
    facts.timestampModulus = SegmentMediaFacts.transportStreamTimestampModulus
    facts.videoAccessUnits = streams.values.filter(\.kind.isVideo).reduce(0) { $0 + $1.units }
    if !videoPTS.isEmpty {
      let sorted = videoPTS.sorted()
      let steps = zip(sorted.dropFirst(), sorted).map { $0 - $1 }.filter { $0 > 0 }
      let fromVUI = facts.picture?.frameRate.map { Int64((90_000 / $0).rounded()) }
      facts.frameDuration = fromVUI ?? steps.min()
      facts.firstPTS = sorted.first
      facts.endPTS = sorted.last.map { $0 + (facts.frameDuration ?? 0) }
    } else if let audio {
      facts.firstPTS = audio.first
      facts.endPTS = audio.end
      facts.frameDuration = audioFrameDuration
    }
    return facts
  }
}

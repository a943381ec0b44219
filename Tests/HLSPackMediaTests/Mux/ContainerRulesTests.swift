import CFFmpeg
import HLSPackCore
import Testing

@testable import HLSPackMedia

/// The container halves of a rendition's muxer, on a real libavformat
/// context writing to memory: what each container sets up and states.
@Suite struct ContainerRulesTests {
  /// A context for `rules` with one AAC stream (48 kHz stereo) set up by them.
  private func context(
    _ rules: ContainerRules
  ) throws -> (format: OutputFormatContext, output: MemoryOutput, stream: UnsafeMutablePointer<AVStream>) {
    let format = try OutputFormatContext(format: rules.formatName)
    let output = try MemoryOutput()
    format.pointer.pointee.pb = output.context
    format.pointer.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
    let stream = try #require(avformat_new_stream(format.pointer, nil))
    let codec = try #require(stream.pointee.codecpar)
    codec.pointee.codec_type = AVMEDIA_TYPE_AUDIO
    codec.pointee.codec_id = AV_CODEC_ID_AAC
    codec.pointee.sample_rate = 48000
    av_channel_layout_default(&codec.pointee.ch_layout, 2)
    stream.pointee.time_base = AVRational(num: 1, den: 48000)
    try rules.configure(stream, isVideo: false, sideData: CopiedVideoSideData())
    return (format, output, stream)
  }

  @Test func transportStreamsUseFixedPIDsAndTheMuxDelay() throws {
    let rules = TransportStreamRules(sampleEncryptor: nil)
    let made = try context(rules)
    #expect(made.stream.pointee.id == 0x101)
    let video = try #require(avformat_new_stream(made.format.pointer, nil))
    try rules.configure(
      video, isVideo: true, sideData: CopiedVideoSideData(displayMatrix: [65536, 0, 0, 0, 65536, 0, 0, 0, 1 << 30]))
    #expect(video.pointee.id == 0x100)
    #expect(video.pointee.nb_side_data == 0, "MPEG-TS has no place for a display matrix")
    let picture = try #require(video.pointee.codecpar)
    picture.pointee.codec_type = AVMEDIA_TYPE_VIDEO
    picture.pointee.codec_id = AV_CODEC_ID_H264
    picture.pointee.width = 64
    picture.pointee.height = 64
    video.pointee.time_base = AVRational(num: 1, den: 90000)
    try rules.writeHeader(made.format.pointer, output: made.output)
    #expect(made.format.pointer.pointee.max_delay == Int32(TransportStreamRules.muxDelayMicroseconds))
    #expect(try rules.takeInitialization(in: made.format.pointer) == nil)
    #expect(rules.audioEnd(pts: 1024, duration: 1024) == nil, "MPEG-TS states no durations")
  }

  @Test func fragmentedMP4HandsItsInitSegmentOverOnce() throws {
    let rules = FragmentedMP4Rules()
    let made = try context(rules)
    // AudioSpecificConfig: AAC-LC, 48 kHz, stereo.
    let config: [UInt8] = [0x11, 0x90]
    let extradata = try #require(av_mallocz(config.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)))
    extradata.copyMemory(from: config, byteCount: config.count)
    let codec = try #require(made.stream.pointee.codecpar)
    codec.pointee.extradata = extradata.assumingMemoryBound(to: UInt8.self)
    codec.pointee.extradata_size = Int32(config.count)
    try rules.writeHeader(made.format.pointer, output: made.output)
    let initialization = try #require(try rules.takeInitialization(in: made.format.pointer))
    #expect(Array(initialization[4..<8]) == Array("ftyp".utf8))
    #expect(try rules.takeInitialization(in: made.format.pointer) == nil)
    #expect(rules.audioEnd(pts: 1024, duration: 1000) == 2024, "the trun's duration ends the frame")
    #expect(rules.audioEnd(pts: 1024, duration: 0) == nil)
  }
}

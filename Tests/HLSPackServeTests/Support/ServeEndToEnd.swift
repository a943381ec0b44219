import Testing

/// Every suite that starts a server runs inside this one, one test at a time:
/// the timing checks (delays, stalls, throughput within 10 %) hold only when
/// ffmpeg runs of another suite are not sharing the two cores.
@Suite("serve end to end", .serialized)
enum ServeEndToEnd {}

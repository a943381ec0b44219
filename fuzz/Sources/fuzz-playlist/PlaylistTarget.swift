import FuzzSupport
import HLSPackCore

/// The playlist reading of `rewrite-keys`: key tags with their attributes,
/// the segments each key covers, the URI rewrite and the removal of repeated
/// session keys. A rewrite changes URIs only, so the tags stay the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaylist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let playlist = fuzzInput(data, size)
  let tags = KeyURIRewriter.keyTags(in: playlist)
  precondition(KeyTagScope.segments(in: playlist).count == tags.count, "key scopes and key tags differ")
  let rewritten = KeyURIRewriter.rewrite(playlist) { _ in "https://keys.example/k1?x=1" }
  let tagsAfter = KeyURIRewriter.keyTags(in: rewritten)
  precondition(tagsAfter.map(\.kind) == tags.map(\.kind) && tagsAfter.map(\.method) == tags.map(\.method), "rewrite changed the tags")
  precondition(tagsAfter.map { $0.uri != nil } == tags.map { $0.uri != nil }, "rewrite changed which tags have a URI")
  _ = KeyURIRewriter.removingRepeatedSessionKeys(rewritten)
  return 0
}

extension Sequence {
  /// `transform` over every element even after one of them throws, for
  /// elements that each hold a thread that must end; the results, or the
  /// first error once all have run.
  func mapAll<T>(_ transform: (Element) throws -> T) throws -> [T] {
    var results: [T] = []
    var failure: Error?
    for element in self {
      do {
        results.append(try transform(element))
      } catch {
        failure = failure ?? error
      }
    }
    if let failure { throw failure }
    return results
  }
}

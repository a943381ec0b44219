/// A short-term reference picture set (ITU-T H.265 §7.3.7, §7.4.8): the
/// pictures before and after the current one and whether it uses them.
/// Sets predicted from another set are derived, because later sets and slice
/// headers depend on their sizes.
struct HEVCShortTermRPS: Equatable {
  struct Picture: Equatable {
    var deltaPOC: Int
    var used: Bool
  }

  /// S0: deltas < 0, closest first.
  var negative: [Picture] = []
  /// S1: deltas > 0, closest first.
  var positive: [Picture] = []

  var numDeltaPOCs: Int { negative.count + positive.count }
  var usedCount: Int { negative.filter(\.used).count + positive.filter(\.used).count }

  /// st_ref_pic_set(index): `previous` are the SPS's sets 0..<index (for a
  /// slice header's own set, index == the SPS's num_short_term_ref_pic_sets).
  init(_ r: inout NALBitReader, index: Int, inSliceHeader: Bool, previous: [HEVCShortTermRPS]) throws {
    let predicted = try index != 0 ? r.bit("inter_ref_pic_set_prediction_flag") : false
    guard predicted else {
      let negatives = try r.ue("num_negative_pics", max: 16)
      let positives = try r.ue("num_positive_pics", max: 16 - negatives)
      var poc = 0
      for i in 0..<negatives {
        poc -= try r.ue("delta_poc_s0_minus1[\(i)]", max: 32767) + 1
        negative.append(Picture(deltaPOC: poc, used: try r.bit("used_by_curr_pic_s0_flag[\(i)]")))
      }
      poc = 0
      for i in 0..<positives {
        poc += try r.ue("delta_poc_s1_minus1[\(i)]", max: 32767) + 1
        positive.append(Picture(deltaPOC: poc, used: try r.bit("used_by_curr_pic_s1_flag[\(i)]")))
      }
      return
    }
    let deltaIdx = try inSliceHeader ? r.ue("delta_idx_minus1", max: index - 1) + 1 : 1
    let referenced = index - deltaIdx
    guard referenced >= 0, referenced < previous.count else {
      throw r.malformed("delta_idx_minus1", "refers to reference picture set \(referenced) of \(previous.count)")
    }
    let ref = previous[referenced]
    let sign = try r.bit("delta_rps_sign")
    let magnitude = try r.ue("abs_delta_rps_minus1", max: 32767) + 1
    let deltaRPS = sign ? -magnitude : magnitude
    // Flags for the reference set's pictures in order S0, S1, then the reference picture itself.
    var usedFlags: [Bool] = []
    var useDelta: [Bool] = []
    for j in 0...ref.numDeltaPOCs {
      let used = try r.bit("used_by_curr_pic_flag[\(j)]")
      usedFlags.append(used)
      useDelta.append(try used ? true : r.bit("use_delta_flag[\(j)]"))
    }
    let n = ref.negative.count, all = ref.numDeltaPOCs
    // Equations 7-61 and 7-62.
    for j in stride(from: ref.positive.count - 1, through: 0, by: -1) {
      let d = ref.positive[j].deltaPOC + deltaRPS
      if d < 0, useDelta[n + j] { negative.append(Picture(deltaPOC: d, used: usedFlags[n + j])) }
    }
    if deltaRPS < 0, useDelta[all] { negative.append(Picture(deltaPOC: deltaRPS, used: usedFlags[all])) }
    for j in 0..<n {
      let d = ref.negative[j].deltaPOC + deltaRPS
      if d < 0, useDelta[j] { negative.append(Picture(deltaPOC: d, used: usedFlags[j])) }
    }
    for j in stride(from: n - 1, through: 0, by: -1) {
      let d = ref.negative[j].deltaPOC + deltaRPS
      if d > 0, useDelta[j] { positive.append(Picture(deltaPOC: d, used: usedFlags[j])) }
    }
    if deltaRPS > 0, useDelta[all] { positive.append(Picture(deltaPOC: deltaRPS, used: usedFlags[all])) }
    for j in 0..<ref.positive.count {
      let d = ref.positive[j].deltaPOC + deltaRPS
      if d > 0, useDelta[n + j] { positive.append(Picture(deltaPOC: d, used: usedFlags[n + j])) }
    }
    guard numDeltaPOCs <= 16 else {
      throw r.malformed("inter_ref_pic_set_prediction_flag", "the derived set has \(numDeltaPOCs) pictures")
    }
  }
}

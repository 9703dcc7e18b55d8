/// The hand-written loops of the deep-pipeline workloads (issue 35): the checksum each
/// library must reproduce.
extension LoopWorkloads {
  static var deepPipelines: [Implementation] {
    var result: [Implementation] = []
    for workload in [
      WorkloadID.erasedFlatMap1, .erasedFlatMap5, .erasedFlatMapMax1x1, .erasedFlatMapMax1x5, .mergeChain1,
      .mergeChain6,
    ] {
      result.append(.sync(.loop, workload, note: "for i in 0..<N { mix(i) }") { n in identity(n) })
    }
    for workload in [WorkloadID.zipChain1, .zipChain6] {
      let depth = workload.depth
      result.append(
        .sync(.loop, workload, note: "for r in 0..<N { v = r; \(depth) × (v = pair(v, r)); mix(v) }") { n in
          var hash = Work.seed
          for round in 0..<n {
            var value = round
            for _ in 0..<depth { value = Work.pair(value, round) }
            hash = Work.mix(hash, value)
          }
          return hash
        })
    }
    for workload in [WorkloadID.mergeTreeBuild1, .mergeTreeBuild7] {
      let leaves = 1 + 3 * workload.depth
      result.append(
        .sync(.loop, workload, note: "for i in 0..<N { for v in 1...\(leaves) { mix(v) } }") { n in
          var hash = Work.seed
          for _ in 0..<n {
            for value in 1...leaves { hash = Work.mix(hash, value) }
          }
          return hash
        })
    }
    for workload in [
      WorkloadID.zipTreeBuild1, .zipTreeBuild7, .combineLatestTreeBuild1, .combineLatestTreeBuild7,
    ] {
      let leaves = 1 + 3 * workload.depth
      result.append(
        .sync(.loop, workload, note: "for i in 0..<N { mix(1 + … + \(leaves)) }") { n in
          var hash = Work.seed
          for _ in 0..<n { hash = Work.mix(hash, leaves * (leaves + 1) / 2) }
          return hash
        })
    }
    for workload in [
      WorkloadID.zipJustTree1, .zipJustTree7, .combineLatestJustTree1, .combineLatestJustTree7, .flatMapChainBuild,
      .switchToLatestChainBuild, .flatMapChainBuild1, .switchToLatestChainBuild1,
    ] {
      result.append(
        .sync(.loop, workload, note: "for i in 0..<N { mix(1) }") { n in
          var hash = Work.seed
          for _ in 0..<n { hash = Work.mix(hash, 1) }
          return hash
        })
    }
    result.append(
      .sync(
        .loop, .genericZipFlatMapUnspecialised, note: "for i in 0..<N { v = pair(transform(i), step(i)); keep → mix }"
      ) {
        n in
        var hash = Work.seed
        for i in 0..<n {
          let value = Work.pair(Work.transform(i), Work.step(i))
          if Work.keep(value) { hash = Work.mix(hash, value) }
        }
        return hash
      })
    result.append(
      .sync(
        .loop, .genericCombineLatestUnspecialised,
        note: "for i in 0..<N { if i > 0 { pair(transform(i), step(i - 1)) }; pair(transform(i), step(i)); keep → mix }"
      ) {
        n in
        // Each value reaches the first side first: combined with the second side's latest
        // (the previous value's step), then the second side's own combination.
        var hash = Work.seed
        for i in 0..<n {
          if i > 0 {
            let earlier = Work.pair(Work.transform(i), Work.step(i - 1))
            if Work.keep(earlier) { hash = Work.mix(hash, earlier) }
          }
          let value = Work.pair(Work.transform(i), Work.step(i))
          if Work.keep(value) { hash = Work.mix(hash, value) }
        }
        return hash
      })
    for workload in [
      WorkloadID.generic12, .generic12Unspecialised, .genericCompactMapUnspecialised, .genericTryFilterUnspecialised,
    ] {
      result.append(
        .sync(.loop, workload, note: "for i in 0..<N { map; filter; 5 × (step; keep); mix }") {
          longChain($0, steps: 5)
        })
    }
    return result
  }

  @inline(never)
  static func identity(_ n: Int) -> UInt64 {
    var hash = Work.seed
    for i in 0..<n { hash = Work.mix(hash, i) }
    return hash
  }
}

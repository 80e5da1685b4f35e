enum ImageBench {
    static func run(_ arguments: [String]) async throws {}
}

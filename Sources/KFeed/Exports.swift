// One import for a program that embeds kfeed: `import KFeed` also brings the error (`KFeedError`, KFeedBase), the
// sizes and display profiles a feed is configured with (`ImageSize`, `DisplayProfile`, KFeedImages), and the query
// and token it searches with (`RecentSearchQuery`, `ContextAnnotation`, `BearerToken`, KFeedX).
@_exported public import KFeedBase
@_exported public import KFeedImages
@_exported public import KFeedX

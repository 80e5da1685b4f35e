// One import for a program that embeds kfeed: `import KFeed` also brings the error (`KFeedError`, KFeedBase) and
// the sizes and display profiles a feed is configured with (`ImageSize`, `DisplayProfile`, KFeedImages).
@_exported public import KFeedBase
@_exported public import KFeedImages

"""tensorvm compiler: StableHLO text -> IR -> passes -> codegen -> .vmfb."""

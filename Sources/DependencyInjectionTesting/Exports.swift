// Test files write `import DependencyInjectionTesting` and use the registration DSL (`New`,
// `Shared`, `DIContainer`) without a second import, as in swift-dependencies' test support.
@_exported import DependencyInjection

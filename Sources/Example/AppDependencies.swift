import DependencyInjection

// One `Module` per feature; the app registers them all at once. (A `Module` is a `Sendable`
// value, so these could as well be global constants.)
enum Features {
    static var networking: Module {
        Module {
            Shared(AppConfiguration(baseURL: "https://api.example.com"))
            // Autowired: `init(configuration:)` gets its parameter resolved by type.
            Shared(HTTPAPIClient.init, as: APIClient.self)
            // An async factory: `try await DIContainer.prepare()` makes it at startup.
            Shared { resolve async throws in try await FeatureFlags.load(from: resolve.tryResolve()) }
        }
    }

    static var logging: Module {
        Module {
            Shared(ConsoleLogger() as Logger)
            Shared(AuditLogger() as Logger).named("audit")
        }
    }

    static var purchases: Module {
        Module {
            Graph(RequestContext(startedBy: "checkout"))
            New(StorePurchaseService.init, as: PurchaseService.self)
        }
    }

    static var catalog: Module {
        Module {
            Weak(ImageCache.init)
            New { resolve, productID in
                DefaultProductViewModel(productID: productID, api: resolve()) as ProductViewModel
            }
            New(CheckoutScreen.init)
        }
    }

    static var account: Module {
        Module {
            // One UserSession per sign-in: kept until `releaseInstances(in: .session)`.
            Scoped(.session, UserSession.init)
            // Every tracker, named; `resolveAll(EventTracker.self)` returns them in this order.
            Shared(ConsoleTracker.init, as: EventTracker.self).named("console")
            Shared(RemoteTracker.init, as: EventTracker.self).named("remote")
        }
    }
}

// `registerDependencies()` runs once, before the first registration or resolution on
// `DIContainer.shared`. This target is part of the DependencyInjection package, so it writes
// the conformance plainly; an app in its own package writes
// `extension DIContainer: @retroactive DependencyRegistering` to silence Swift 6's warning.
// It is nonisolated code, so these services may be resolved on any thread (registrations written
// in main-actor code, such as main.swift's top level, are made on the main actor only).
extension DIContainer: DependencyRegistering {
    public static func registerDependencies() {
        register {
            Features.networking
            Features.logging
            Features.purchases
            Features.catalog
            Features.account
        }
    }
}

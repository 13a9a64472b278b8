import DependencyInjection

// One `Module` per feature; the app registers them all at once. (A `Module` is a `Sendable`
// value, so these could as well be global constants.)
enum Features {
    static var networking: Module {
        Module {
            Shared(AppConfiguration(baseURL: "https://api.example.com"))
            Shared { resolve in HTTPAPIClient(configuration: resolve()) as APIClient }
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
            New { resolve in
                StorePurchaseService(api: resolve(), logger: resolve(), context: resolve()) as PurchaseService
            }
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
}

// `registerDependencies()` runs once, before the first registration or resolution on
// `DIContainer.shared`. This target is part of the DependencyInjection package, so it writes
// the conformance plainly; an app in its own package writes
// `extension DIContainer: @retroactive DependencyRegistering` to silence Swift 6's warning.
extension DIContainer: DependencyRegistering {
    public static func registerDependencies() {
        register {
            Features.networking
            Features.logging
            Features.purchases
            Features.catalog
        }
    }
}

import DependencyInjection
@MainActor final class ProfileModel { init() {} }
DIContainer.register { Shared { @MainActor in ProfileModel() } }
_ = DIContainer.resolve(ProfileModel.self)
print("main thread top-level ok")
Task.detached { print((try? DIContainer.tryResolve(ProfileModel.self)) == nil ? "detached: refused ok" : "detached: WRONG") ; exit(0) }
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
dispatchMain()

import Testing
import WebImageCore

@Suite struct PluginPolicyTests {
    @Test func theDefaultPolicyOpensEverythingAndAllowsNoOverride() {
        let policy = PluginPolicy()
        #expect(policy.allowedPlugins == nil)
        #expect(policy.deniedPlugins.isEmpty)
        #expect(policy.overridesAllowed.isEmpty)
        #expect(policy.closure(of: "anything") == nil)
    }

    @Test func theDenyListWinsOverTheAllowList() {
        let policy = PluginPolicy(allowedPlugins: ["png", "jpeg"], deniedPlugins: ["jpeg"])
        #expect(policy.closure(of: "png") == nil)
        #expect(policy.closure(of: "jpeg") == .denied)
        #expect(policy.closure(of: "gif") == .notAllowed)
    }

    @Test func environmentListsAreCommaSeparatedAndJoinTheHostsLists() {
        let policy = PluginPolicy.standard(
            deniedPlugins: ["a"], overridesAllowed: ["x"],
            environment: [
                "WEBIMAGE_PLUGIN_DENY": " b, ,c ", "WEBIMAGE_PLUGIN_ALLOW_OVERRIDE": "y",
                "WEBIMAGE_PLUGIN_ALLOW": "",
            ])
        #expect(policy.allowedPlugins == nil)
        #expect(policy.deniedPlugins == ["a", "b", "c"])
        #expect(policy.overridesAllowed == ["x", "y"])
    }

    @Test func anAllowListFromEitherPlaceIsAnAllowList() {
        #expect(PluginPolicy.standard(environment: ["WEBIMAGE_PLUGIN_ALLOW": "png"]).allowedPlugins == ["png"])
        #expect(PluginPolicy.standard(allowedPlugins: ["gif"], environment: [:]).allowedPlugins == ["gif"])
        #expect(
            PluginPolicy.standard(allowedPlugins: ["gif"], environment: ["WEBIMAGE_PLUGIN_ALLOW": "png"])
                .allowedPlugins == ["gif", "png"])
    }
}

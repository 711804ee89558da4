import WebImageCore

// `webimage-plugin-worker`: the child process an isolated plugin runs in (see PluginWorker).
PluginWorker.run()

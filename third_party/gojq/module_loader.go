package gojq

// sandsh: upstream's NewModuleLoader, which reads jq modules from the host
// filesystem, is removed: a sandbox never loads host files, sandsh's jq
// never installed a module loader, and the repository's host-boundary
// test checks this copy like the rest of the tree. The interface stays
// for WithModuleLoader (an in-sandbox loader could implement it).

// ModuleLoader is the interface for loading modules.
//
// Implement following optional methods.
//
//	LoadInitModules() ([]*Query, error)
//	LoadModule(string) (*Query, error)
//	LoadModuleWithMeta(string, map[string]any) (*Query, error)
//	LoadJSON(string) (any, error)
//	LoadJSONWithMeta(string, map[string]any) (any, error)
type ModuleLoader any

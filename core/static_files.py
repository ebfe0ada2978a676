"""The storage of the collected static files in production: hashed names, compressed copies, and
the paths of JavaScript modules' imports rewritten to the hashed names.

Without the rewrite a hashed module (cached for good) would load its siblings under their plain
names, which change with every release while the browser may still hold the old ones. Django's
manifest storage rewrites static `import ... from "./x.js";` and `export ... from` statements
(relative paths only, each ending with a semicolon) when `support_js_module_import_aggregation`
is on; the modules must not import each other in a cycle.
"""

from servestatic.storage import CompressedManifestStaticFilesStorage


class ModuleManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True

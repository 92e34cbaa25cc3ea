local util = require("lspconfig.util")

local M = {}

--- Sets up a language server.
function M.setup(name, opts)
  opts = opts or {}
  local config = M.configs[name]
  if not config then
    error("unknown server " .. name)
  end
  return config.launch(opts)
end

local function root_pattern(...)
  return util.root_pattern(...)
end

M.root_pattern = root_pattern

return M

-- A small module for the golden test.
local M = {}

-- greet returns a greeting.
function M.greet(name)
  return "hello " .. name
end

function M:method(x)
  return self, x
end

local function helper(x)
  return x * 2
end

local square = function(x)
  return x * x
end

M.cube = function(x)
  return x * x * x
end

function global_fn()
  return helper(1)
end

return M

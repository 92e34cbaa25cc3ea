defmodule Phoenix.Router do
  @moduledoc "Routes requests to controllers."

  defmacro get(path, controller, action) do
    quote do
      match(:get, unquote(path), unquote(controller), unquote(action))
    end
  end

  def match(method, path, controller, action) do
    {method, path, controller, action}
  end

  defp normalize(path) do
    String.trim_trailing(path, "/")
  end
end

# A small module for the golden test.
defmodule Example.Cache do
  @moduledoc "A cache."

  @doc "Fetches a key."
  @spec fetch(map, term) :: term
  def fetch(store, key) do
    Map.get(store, key)
  end

  defp helper(x) when is_integer(x), do: x * 2

  def zero, do: 0

  defmacro debug(expr) do
    quote do: IO.inspect(unquote(expr))
  end
end

defprotocol Example.Size do
  def size(data)
end

defimpl Example.Size, for: Map do
  def size(map), do: map_size(map)
end

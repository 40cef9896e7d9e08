package fingerprint

// Name makes a model's name for people from its digest: an adjective and
// a noun chosen by the digest's first twelve bits, "calm-heron". Two
// models may share a name (one in 4,096); messages show the fingerprint's
// first digits beside it (grade.Model.String), and only the fingerprint is
// compared.
func Name(digest []byte) string {
	if len(digest) < 2 {
		return "unnamed"
	}
	return adjectives[digest[0]>>2] + "-" + nouns[digest[1]>>2]
}

var adjectives = [64]string{
	"amber", "ashen", "azure", "bold", "brave", "brisk", "bright", "calm",
	"clear", "close", "cool", "coral", "crisp", "dark", "deep", "dry",
	"dusky", "eager", "early", "even", "fair", "fast", "fine", "firm",
	"fleet", "fresh", "gentle", "glad", "golden", "grand", "green", "grey",
	"hale", "high", "hushed", "keen", "kind", "late", "light", "lively",
	"long", "loud", "low", "mild", "misty", "noble", "pale", "plain",
	"proud", "quick", "quiet", "rapid", "ready", "rosy", "round", "sharp",
	"silver", "sleek", "slow", "snowy", "steady", "still", "swift", "warm",
}

var nouns = [64]string{
	"badger", "bear", "beaver", "bison", "crane", "crow", "deer", "dove",
	"eagle", "egret", "elk", "falcon", "finch", "fox", "gannet", "gecko",
	"goose", "grouse", "gull", "hare", "hawk", "heron", "ibis", "jay",
	"kestrel", "kite", "lark", "lemur", "lynx", "magpie", "marten", "mink",
	"moose", "moth", "newt", "otter", "owl", "panda", "pika", "plover",
	"puffin", "quail", "raven", "robin", "seal", "shrew", "skylark", "sparrow",
	"stoat", "stork", "swan", "swift", "tern", "thrush", "toad", "trout",
	"vole", "walrus", "weasel", "whale", "wolf", "wren", "yak", "zebra",
}

"""Which kept context state the embedded model restores before a prompt (no model needed)."""

from masfuzz.llm.local_prefix import MIN_GAIN, PrefixStates, Saved, common_prefix

AGENT = tuple(range(100, 400))  # an agent's instructions, worked examples and tools
TESTER = tuple(range(1000, 1200))


def saved(tokens, size=None):
    return Saved(tuple(tokens), data=b"", size=len(tokens) if size is None else size)


def test_the_state_sharing_the_longest_prefix_is_chosen():
    states = PrefixStates()
    states.keep("sut:Triage Agent", saved(AGENT + (1, 2, 3)))
    states.keep("tester:realizer:Reach", saved(TESTER + (7,)))
    prompt = AGENT + (1, 2, 9, 9)
    found, shared = states.best(prompt, live=0)
    assert found.tokens == AGENT + (1, 2, 3) and shared == len(AGENT) + 2
    assert states.best(TESTER + (8,), live=0)[1] == len(TESTER)


def test_no_restore_when_the_context_already_shares_as_much_or_nearly():
    states = PrefixStates()
    states.keep("sut:a", saved(AGENT))
    prompt = AGENT + (5,)
    assert states.best(prompt, live=len(AGENT)) is None
    assert states.best(prompt, live=len(AGENT) - MIN_GAIN + 1) is None  # a gain too small to copy for
    assert states.best(prompt, live=len(AGENT) - MIN_GAIN) is not None
    assert states.best(tuple(range(5000, 5300)), live=0) is None  # nothing in common


def test_the_last_token_of_the_prompt_is_always_evaluated():
    # the model samples from the logits of the prompt's last token; a restored state has none
    states = PrefixStates()
    states.keep("sut:a", saved(AGENT + (1, 2)))
    assert states.best(AGENT, live=0)[1] == len(AGENT) - 1


def test_one_state_per_caller_the_least_recently_used_dropped_first():
    states = PrefixStates(capacity=1000)
    states.keep("sut:a", saved(AGENT, size=400))
    states.keep("sut:a", saved(AGENT + (1,), size=400))  # replaces a's earlier state
    assert len(states) == 1
    states.keep("tester:r", saved(TESTER, size=400))
    found, shared = states.best(AGENT + (1, 2), live=0)
    states.restored(found, shared, live=10)  # a's state used: now the most recent
    assert (states.restores, states.reused) == (1, shared - 10)
    states.keep("sut:b", saved(range(2000, 2100), size=400))  # over capacity: the tester's goes
    assert states.best(TESTER + (3,), live=0) is None
    assert states.best(AGENT + (1, 2), live=0) is not None
    states.keep("sut:huge", saved(range(3000, 3100), size=5000))  # bigger than all: not kept
    assert len(states) == 2


def test_common_prefix():
    assert common_prefix([1, 2, 3], (1, 2, 4, 5)) == 2
    assert common_prefix([], [1]) == 0
    assert common_prefix([1, 2], [1, 2]) == 2

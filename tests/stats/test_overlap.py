from mrclens.stats.overlap import PassageNgrams, content_word_share, longest_shared_ngram
from mrclens.stats.text import word_tokens

PASSAGE = PassageNgrams(word_tokens("Paris is the capital of France. The Eiffel Tower was built in 1889."))


def test_longest_shared_ngram_in_word_tokens():
    assert longest_shared_ngram(word_tokens("What is the capital of France?"), PASSAGE) == 5  # is the capital of france
    assert longest_shared_ngram(word_tokens("When was the Eiffel Tower built?"), PASSAGE) == 3  # the eiffel tower
    assert longest_shared_ngram(word_tokens("Why?"), PASSAGE) == 0
    # punctuation and case do not count: "France. The Eiffel" is the word 3-gram france the eiffel
    assert longest_shared_ngram(word_tokens("france THE eiffel"), PASSAGE) == 3


def test_longest_shared_ngram_needs_contiguity():
    assert longest_shared_ngram(word_tokens("capital France"), PASSAGE) == 1


def test_content_word_share():
    sentence = set(word_tokens("It is 330 metres tall."))
    # content words of the question: tall, eiffel, tower (how/is/the are stop or wh-words)
    assert content_word_share(word_tokens("How tall is the Eiffel Tower?"), sentence) == 100 / 3
    assert content_word_share(word_tokens("Is it?"), sentence) is None

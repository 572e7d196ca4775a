from mrclens.stats.text import (
    exact_key,
    first_wh_word,
    is_content_word,
    near_key,
    question_type,
    whitespace_words,
    word_tokens,
)


def test_question_type_uses_the_first_word_buckets_of_beat_the_ai():
    assert question_type("What year did the war end?") == "what"
    assert question_type("  ¿Who wrote it?") == "who"
    assert question_type("In what year was it built?") == "in"
    assert question_type("The treaty was signed where?") == "other"
    assert question_type("Whose army won?") == "whose"
    assert question_type("") == "other"


def test_first_wh_word_anywhere_in_the_question():
    assert first_wh_word("In which city was he born?") == "which"
    assert first_wh_word("The war ended when?") == "when"
    assert first_wh_word("Name the river.") is None
    assert first_wh_word("Somehow, somewhat odd") is None  # whole words only


def test_tokenisations():
    assert whitespace_words("The U.S. army's 3rd  division?") == ["The", "U.S.", "army's", "3rd", "division?"]
    assert word_tokens("The U.S. army's 3rd division?") == ["the", "u", "s", "army", "s", "3rd", "division"]
    assert is_content_word("tower") and not is_content_word("the") and not is_content_word("when")


def test_exact_and_near_keys():
    assert exact_key("Hello   world ") == exact_key("Hello world")
    assert exact_key("Hello world") != exact_key("hello world")
    assert near_key("The U.S. Army, in Zürich!") == near_key("the US army in zurich")
    assert near_key("an apple") == near_key("apple")
    assert near_key("apple pie") != near_key("apple tart")


def test_token_spans_keep_original_offsets():
    from mrclens.stats.text import whitespace_spans, word_token_spans

    text = " İstanbul's  ΣΟΦΟΣ, x_y\t(1990s)"
    words, starts, ends = word_token_spans(text)
    assert words == ["i̇stanbul", "s", "σοφος", "x_y", "1990s"]  # each word lower-cased on its own
    assert [text[a:b] for a, b in zip(starts, ends)] == ["İstanbul", "s", "ΣΟΦΟΣ", "x_y", "1990s"]
    assert word_token_spans("") == ([], [], []) and word_token_spans(" ,;") == ([], [], [])
    assert whitespace_spans(text, 10) == [(11, 21), (23, 29), (30, 33), (34, 41)]
    assert whitespace_spans("   ") == [] and whitespace_spans("a") == [(0, 1)]

"""The shared text vocabulary (mrclens.vocabulary): one list of wh-words, spaCy's stop words read
without importing spaCy, one word pattern; every stage uses these objects, not copies."""

from __future__ import annotations

import subprocess
import sys

from mrclens.vocabulary import STOP_WORDS, WH_WORDS, WORD_PATTERN, spacy_stop_words


def test_the_nine_wh_words_in_reporting_order():
    assert WH_WORDS == ("what", "which", "who", "whom", "whose", "when", "where", "why", "how")


def test_stop_words_are_spacys_list_read_without_importing_spacy():
    from spacy.lang.en.stop_words import STOP_WORDS as spacy_list

    assert isinstance(STOP_WORDS, frozenset) and STOP_WORDS == frozenset(spacy_list)
    assert "the" in STOP_WORDS and "n’t" in STOP_WORDS and "tower" not in STOP_WORDS
    assert spacy_stop_words() == STOP_WORDS
    code = "import sys, mrclens.vocabulary, mrclens.stats.text; print('spacy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_word_pattern_is_runs_of_unicode_word_characters():
    assert WORD_PATTERN.findall("The U.S. army's 3rd division, x_y in Zürich?") == [
        "The", "U", "S", "army", "s", "3rd", "division", "x_y", "in", "Zürich"]
    assert WORD_PATTERN.fullmatch("1889") and not WORD_PATTERN.fullmatch("U.S.")


def test_every_stage_uses_the_same_objects():
    from mrclens.perturbations.ablations.e4_interrogative_only import INTERROGATIVES
    from mrclens.perturbations.controls import InsertionPool
    from mrclens.stats import text

    assert text.WH_WORDS is WH_WORDS and text.STOP_WORDS is STOP_WORDS
    assert INTERROGATIVES == frozenset(WH_WORDS)
    assert InsertionPool(seed=0).stop_words is STOP_WORDS

//! Which code points every output shows escaped, derived from Unicode properties (the
//! `unicode-properties` crate's General_Category and Emoji tables, Unicode 18.0, the version
//! `unicode-width` measures with) rather than typed out: format characters (Cf, the bidi
//! controls, zero-width spaces and joiners, the tag block and the prepended concatenation marks
//! among them), line and paragraph separators (Zl, Zp), private use (Co: a glyph whose width
//! no layout can know), unassigned code points and noncharacters (Cn), and the
//! default-ignorable code points outside Cf (DerivedCoreProperties.txt
//! Default_Ignorable_Code_Point: variation selectors, the combining grapheme joiner, Hangul
//! fillers, Khmer inherent vowels), plus the blank Braille pattern, which draws as nothing.

use unicode_properties::{GeneralCategory, UnicodeEmoji, UnicodeGeneralCategory};

/// The Prepended_Concatenation_Mark code points (PropList.txt): Arabic number signs and
/// similar marks that a terminal joins to the following digits. All are Cf; named here so the
/// table says so (a test checks each is escaped).
pub const PREPENDED_CONCATENATION_MARKS: &[(char, char)] = &[
    ('\u{0600}', '\u{0605}'),
    ('\u{06dd}', '\u{06dd}'),
    ('\u{070f}', '\u{070f}'),
    ('\u{0890}', '\u{0891}'),
    ('\u{08e2}', '\u{08e2}'),
    ('\u{110bd}', '\u{110bd}'),
    ('\u{110cd}', '\u{110cd}'),
];

/// Default_Ignorable_Code_Point characters whose General_Category is not Cf (Mn or Lo:
/// DerivedCoreProperties.txt); the presentation selectors U+FE0E/U+FE0F are judged by
/// [`is_hidden_after`] instead, as they belong to the emoji before them.
const IGNORABLE_OUTSIDE_CF: &[(char, char)] = &[
    ('\u{034f}', '\u{034f}'),
    ('\u{115f}', '\u{1160}'),
    ('\u{17b4}', '\u{17b5}'),
    ('\u{180b}', '\u{180d}'),
    ('\u{180f}', '\u{180f}'),
    ('\u{3164}', '\u{3164}'),
    ('\u{fe00}', '\u{fe0d}'),
    ('\u{ffa0}', '\u{ffa0}'),
    ('\u{e0100}', '\u{e01ef}'),
];

/// Characters that join a neighbour into one grapheme at a width that is not the sum of their
/// own (GraphemeBreakProperty.txt): the Grapheme_Cluster_Break=Prepend letters outside Cf, which
/// join the character after them (a column separator too), and the halfwidth katakana sound
/// marks, Extend characters one column wide. `every_scalar_tests` derives both sets from
/// `unicode-segmentation` and checks this list holds them.
const JOINS_AT_ANOTHER_WIDTH: &[(char, char)] = &[
    ('\u{0d4e}', '\u{0d4e}'),
    ('\u{ff9e}', '\u{ff9f}'),
    ('\u{111c2}', '\u{111c3}'),
    ('\u{113d1}', '\u{113d1}'),
    ('\u{1193f}', '\u{1193f}'),
    ('\u{11941}', '\u{11941}'),
    ('\u{11a3a}', '\u{11a3a}'),
    ('\u{11a84}', '\u{11a89}'),
    ('\u{11d46}', '\u{11d46}'),
    ('\u{11f02}', '\u{11f02}'),
];

/// U+2800 BRAILLE PATTERN BLANK: a letter-like symbol that draws as a space, used to hide text.
const BRAILLE_BLANK: char = '\u{2800}';

fn in_ranges(c: char, ranges: &[(char, char)]) -> bool {
    ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&c))
}

/// Bidirectional-text controls (the "Trojan Source" characters): they reorder what a terminal
/// shows, so they are escaped like control characters. (All are Cf, so [`is_invisible`] covers
/// them too; named for the messages that speak of them.)
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Whether `c` is a prepended concatenation mark ([`PREPENDED_CONCATENATION_MARKS`]).
pub fn is_prepended_concatenation_mark(c: char) -> bool {
    in_ranges(c, PREPENDED_CONCATENATION_MARKS)
}

/// Characters that show as nothing, at a width no layout can know, or let text hide inside
/// other text: General_Category Cf, Zl, Zp, Co and Cn, the prepended concatenation marks, the
/// default-ignorable code points outside Cf (but U+FE0E/U+FE0F, see [`is_hidden_after`]), the
/// characters that join a neighbour at another width (prepended letters, halfwidth sound marks)
/// and the blank Braille pattern. A tool that shows what was sent escapes them, as it does control
/// characters (a message that displays as "please summarise README" can carry a whole
/// instruction spelt in tag characters).
pub fn is_invisible(c: char) -> bool {
    if c.is_ascii() {
        return false;
    }
    matches!(
        c.general_category(),
        GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
            | GeneralCategory::PrivateUse
            | GeneralCategory::Unassigned
            | GeneralCategory::Surrogate
    ) || is_prepended_concatenation_mark(c)
        || in_ranges(c, IGNORABLE_OUTSIDE_CF)
        || in_ranges(c, JOINS_AT_ANOTHER_WIDTH)
        || c == BRAILLE_BLANK
}

/// Characters every output shows escaped although they are not control characters, whatever
/// comes before them: bidi controls and invisible characters.
pub fn is_hidden(c: char) -> bool {
    is_bidi_control(c) || is_invisible(c)
}

/// Whether `c`, after `prev` (`None` at the start of the text), is shown escaped: a hidden
/// character ([`is_hidden`]) anywhere, and the text and emoji presentation selectors U+FE0E
/// and U+FE0F anywhere but right after an emoji (`❤️` stays as it is; a selector after a
/// letter changes nothing a reader can see, and terminals disagree on its width).
pub fn is_hidden_after(prev: Option<char>, c: char) -> bool {
    match c {
        '\u{fe0e}' | '\u{fe0f}' => !prev.is_some_and(UnicodeEmoji::is_emoji_char),
        c => is_hidden(c),
    }
}

/// Whether a terminal could act on `c`, or a reader could not see it (C0 except newline and
/// tab, DEL, C1, bidi controls, invisible characters), whatever comes before it.
pub fn is_unsafe_for_terminal(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_hidden(c)
}

/// Whether `c` after `prev` is unsafe ([`is_unsafe_for_terminal`], and the presentation
/// selectors outside emoji, [`is_hidden_after`]).
pub fn is_unsafe_after(prev: Option<char>, c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_hidden_after(prev, c)
}

/// The byte offset and character of the first character in `text` that [`is_unsafe_after`]
/// flags, judged with the character before it: what the escaping property tests look for.
pub fn first_unsafe(text: &str) -> Option<(usize, char)> {
    let mut prev = None;
    for (at, c) in text.char_indices() {
        if is_unsafe_after(prev, c) {
            return Some((at, c));
        }
        prev = Some(c);
    }
    None
}

/// Whether `text` holds a character that the escaping functions show escaped because a reader
/// could not see it (bidi controls and invisible characters; control characters aside).
pub fn has_hidden(text: &str) -> bool {
    if text.is_ascii() {
        return false;
    }
    let mut prev = None;
    for c in text.chars() {
        if is_hidden_after(prev, c) {
            return true;
        }
        prev = Some(c);
    }
    false
}

//! Themes: named roles (removed, added, modified, rule tag, gutter, …) mapped to styles,
//! loaded from TOML. Missing roles fall back along a fixed chain; `NO_COLOR` strips colours
//! but keeps the modifiers that carry meaning (bold, italic, underline, reverse; never crossed
//! out, which reads as "cancelled"). `auto` (the default) asks the terminal for its background
//! (OSC 11) and picks the dark or the light theme; `docs/themes.md` has the contrast rules.

use std::ops::Range;
use std::path::Path;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

/// The built-in themes, embedded so the binary works anywhere.
pub const BUILTIN: [(&str, &str); 3] = [
    ("dark", include_str!("../../themes/dark.toml")),
    ("light", include_str!("../../themes/light.toml")),
    ("high-contrast", include_str!("../../themes/high-contrast.toml")),
];

macro_rules! roles {
    ($($variant:ident = $key:literal => $fallback:expr),* $(,)?) => {
        /// A named style role.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Role {
            $(#[doc = concat!("`", $key, "`")] $variant,)*
        }

        impl Role {
            /// Every role, in declaration order.
            pub const ALL: &'static [Role] = &[$(Role::$variant,)*];

            /// The key used in theme files.
            pub fn key(self) -> &'static str {
                match self { $(Role::$variant => $key,)* }
            }

            /// The role used when a theme does not define this one.
            pub fn fallback(self) -> Option<Role> {
                match self { $(Role::$variant => $fallback,)* }
            }
        }
    };
}

roles! {
    Text = "text" => None,
    Muted = "muted" => Some(Role::Text),
    Border = "border" => Some(Role::Muted),
    BorderFocus = "border_focus" => Some(Role::Title),
    Title = "title" => Some(Role::Text),
    Header = "header" => Some(Role::Text),
    HeaderKey = "header_key" => Some(Role::Muted),
    BadgeUser = "badge_user" => Some(Role::Title),
    BadgeAssistant = "badge_assistant" => Some(Role::Title),
    BadgeTool = "badge_tool" => Some(Role::Title),
    BadgeOther = "badge_other" => Some(Role::Muted),
    Thinking = "thinking" => Some(Role::Muted),
    ToolCall = "tool_call" => Some(Role::Text),
    Image = "image" => Some(Role::ToolCall),
    Error = "error" => Some(Role::Removed),
    Removed = "removed" => None,
    Added = "added" => None,
    Modified = "modified" => None,
    Moved = "moved" => Some(Role::Modified),
    RuleTag = "rule_tag" => Some(Role::Modified),
    Gutter = "gutter" => Some(Role::Muted),
    Placeholder = "placeholder" => Some(Role::Muted),
    Selection = "selection" => None,
    SearchMatch = "search_match" => Some(Role::Modified),
    StatusBar = "status_bar" => Some(Role::Text),
    HintKey = "hint_key" => Some(Role::Title),
}

/// Modifiers a role keeps even without colour, so the meaning stays visible.
fn meaning(role: Role) -> Modifier {
    match role {
        Role::Removed => Modifier::ITALIC,
        Role::Added | Role::RuleTag | Role::Title | Role::Error => Modifier::BOLD,
        Role::Modified | Role::Moved | Role::SearchMatch => Modifier::UNDERLINED,
        Role::Selection => Modifier::REVERSED,
        _ => Modifier::empty(),
    }
}

/// A resolved theme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    /// Theme name.
    pub name: String,
    styles: Vec<Style>,
    /// Syntect theme for the raw JSON pane (`None` = no highlighting).
    pub syntax_theme: Option<String>,
    /// The terminal background the theme is made for (`background = "dark"|"light"`).
    pub background: Background,
}

/// The kind of terminal background a theme is made for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Background {
    /// Light text on a dark background (the default).
    #[default]
    Dark,
    /// Dark text on a light background.
    Light,
}

#[derive(Debug, Deserialize)]
struct ThemeFile {
    name: Option<String>,
    syntax_theme: Option<String>,
    #[serde(default)]
    background: Background,
    #[serde(default)]
    roles: std::collections::BTreeMap<toml::Spanned<String>, RoleSpec>,
}

#[derive(Debug, Default, Clone, Deserialize)]
struct RoleSpec {
    fg: Option<toml::Spanned<String>>,
    bg: Option<toml::Spanned<String>>,
    #[serde(default)]
    modifiers: Vec<toml::Spanned<String>>,
}

/// What is wrong in a settings text (a theme or keymap TOML), and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsProblem {
    /// Byte range of the offending text, when known.
    pub span: Option<Range<usize>>,
    /// What is wrong, on one line.
    pub message: String,
}

impl SettingsProblem {
    /// A problem with the text at `span`.
    pub fn at(span: Range<usize>, message: impl Into<String>) -> Self {
        Self {
            span: Some(span),
            message: message.into(),
        }
    }

    /// The problem in a named file: one sentence with the line and column.
    pub fn in_file(self, kind: &'static str, file: &Path, text: &str) -> SettingsFileError {
        SettingsFileError {
            kind,
            file: file.display().to_string(),
            at: self.span.map(|span| line_column(text, span.start)),
            message: self.message,
        }
    }
}

impl From<toml::de::Error> for SettingsProblem {
    fn from(e: toml::de::Error) -> Self {
        Self {
            span: e.span(),
            message: e.message().trim().to_owned(),
        }
    }
}

impl std::fmt::Display for SettingsProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A theme or keymap file that cannot be used, as one line: what and which file, the line
/// and column of a TOML error, what is wrong (exit status 2: unusable input).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} {file}{}: {}", self.position(), one_line(message))]
pub struct SettingsFileError {
    /// "theme", "keymap", "built-in theme".
    pub kind: &'static str,
    /// The file (or built-in name).
    pub file: String,
    /// 1-based line and column (in characters) of the problem, when known.
    pub at: Option<(usize, usize)>,
    /// What is wrong.
    pub message: String,
}

impl SettingsFileError {
    /// A settings file that cannot be read at all.
    pub fn unreadable(kind: &'static str, file: &Path, message: String) -> Self {
        Self {
            kind,
            file: file.display().to_string(),
            at: None,
            message,
        }
    }

    fn position(&self) -> String {
        self.at
            .map(|(line, column)| format!(", line {line}, column {column}"))
            .unwrap_or_default()
    }
}

/// 1-based line and character column of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

/// Line breaks of a parser message joined into one line.
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

impl Theme {
    /// The style of a role.
    pub fn style(&self, role: Role) -> Style {
        self.styles[role as usize]
    }

    /// The default theme (dark).
    #[cfg(test)]
    pub fn dark() -> Self {
        Self::parse(BUILTIN[0].1, false).unwrap_or_else(|_| Self::plain())
    }

    /// A theme without colours: only the meaning-carrying modifiers.
    #[cfg(test)]
    pub fn plain() -> Self {
        Self {
            name: "plain".into(),
            styles: Role::ALL
                .iter()
                .map(|&r| Style::new().add_modifier(meaning(r)))
                .collect(),
            syntax_theme: None,
            background: Background::Dark,
        }
    }

    /// Load a theme by built-in name or path; `no_color` strips colours. An error is a
    /// [`SettingsFileError`] naming the file.
    pub fn load(name_or_path: &str, no_color: bool) -> anyhow::Result<Self> {
        if let Some((name, text)) = BUILTIN.iter().find(|(n, _)| *n == name_or_path) {
            return Ok(Self::parse(text, no_color).map_err(|p| p.in_file("built-in theme", Path::new(name), text))?);
        }
        let path = Path::new(name_or_path);
        let text = std::fs::read_to_string(path).map_err(|e| {
            SettingsFileError::unreadable(
                "theme",
                path,
                format!("neither a built-in theme (auto, dark, light, high-contrast) nor a readable file: {e}"),
            )
        })?;
        Ok(Self::parse(&text, no_color).map_err(|p| p.in_file("theme", path, &text))?)
    }

    /// Parse a theme file.
    pub fn parse(text: &str, no_color: bool) -> Result<Self, SettingsProblem> {
        let file: ThemeFile = toml::from_str(text)?;
        let mut own: Vec<Option<Style>> = vec![None; Role::ALL.len()];
        for (key, spec) in &file.roles {
            let role = Role::ALL.iter().find(|r| r.key() == key.get_ref()).ok_or_else(|| {
                let known: Vec<&str> = Role::ALL.iter().map(|r| r.key()).collect();
                SettingsProblem::at(
                    key.span(),
                    format!("unknown theme role {:?} (roles: {})", key.get_ref(), known.join(", ")),
                )
            })?;
            own[*role as usize] = Some(spec_style(spec)?);
        }
        let styles = Role::ALL
            .iter()
            .map(|&role| {
                let mut r = Some(role);
                let mut depth = 0;
                let mut style = Style::new();
                while let Some(cur) = r {
                    if let Some(s) = own[cur as usize] {
                        style = s;
                        break;
                    }
                    r = cur.fallback();
                    depth += 1;
                    if depth > Role::ALL.len() {
                        break;
                    }
                }
                if no_color {
                    style.fg = None;
                    style.bg = None;
                    style.underline_color = None;
                    style = style.remove_modifier(Modifier::CROSSED_OUT).add_modifier(meaning(role));
                }
                style
            })
            .collect();
        Ok(Self {
            name: file.name.unwrap_or_else(|| "custom".into()),
            styles,
            syntax_theme: if no_color { None } else { file.syntax_theme },
            background: file.background,
        })
    }
}

fn spec_style(spec: &RoleSpec) -> Result<Style, SettingsProblem> {
    let mut style = Style::new();
    if let Some(fg) = &spec.fg {
        style = style.fg(color(fg)?);
    }
    if let Some(bg) = &spec.bg {
        style = style.bg(color(bg)?);
    }
    for m in &spec.modifiers {
        style = style.add_modifier(match m.get_ref().as_str() {
            "bold" => Modifier::BOLD,
            "dim" => Modifier::DIM,
            "italic" => Modifier::ITALIC,
            "underlined" | "underline" => Modifier::UNDERLINED,
            "reversed" | "reverse" => Modifier::REVERSED,
            "crossed_out" => Modifier::CROSSED_OUT,
            other => {
                return Err(SettingsProblem::at(
                    m.span(),
                    format!("unknown modifier {other:?} (bold, dim, italic, underlined, reversed, crossed_out)"),
                ));
            }
        });
    }
    Ok(style)
}

fn color(name: &toml::Spanned<String>) -> Result<Color, SettingsProblem> {
    name.get_ref().parse::<Color>().map_err(|_| {
        SettingsProblem::at(
            name.span(),
            format!(
                "unknown colour {:?} (use a name like \"red\" or \"#rrggbb\")",
                name.get_ref()
            ),
        )
    })
}

/// Whether `NO_COLOR` asks for no colour (set and non-empty).
pub fn no_color_env() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_themes_parse_and_define_the_core_roles() {
        for (name, text) in BUILTIN {
            let theme = Theme::parse(text, false).unwrap();
            assert_eq!(theme.name, name);
            for role in [Role::Removed, Role::Added, Role::Modified, Role::Selection] {
                assert!(
                    theme.style(role).fg.is_some() || theme.style(role).bg.is_some(),
                    "{name} {role:?}"
                );
            }
        }
    }

    #[test]
    fn fallbacks_and_no_color() {
        let theme = Theme::parse("[roles]\nmodified = { fg = \"yellow\" }\n", false).unwrap();
        assert_eq!(theme.style(Role::RuleTag).fg, Some(Color::Yellow));
        let plain = Theme::parse(BUILTIN[0].1, true).unwrap();
        assert!(
            Role::ALL
                .iter()
                .all(|&r| plain.style(r).fg.is_none() && plain.style(r).bg.is_none())
        );
        assert!(
            Role::ALL
                .iter()
                .all(|&r| !plain.style(r).add_modifier.contains(Modifier::CROSSED_OUT))
        );
        assert!(plain.style(Role::Error).add_modifier.contains(Modifier::BOLD));
        let struck = Theme::parse(
            "[roles]\nerror = { fg = \"red\", modifiers = [\"crossed_out\"] }\n",
            true,
        )
        .unwrap();
        assert!(!struck.style(Role::Error).add_modifier.contains(Modifier::CROSSED_OUT));
        assert!(Theme::parse("[roles]\nnope = {}\n", false).is_err());
    }
}

//! Keyword expressions, as people type them into search boxes and keyword feeds: words, phrases in
//! any of the usual quote styles, AND, OR, NOT (in any case) and parentheses.
//!
//! [`parse`] validates with exactly the spec's three messages and returns an [`Expr`] whose
//! `Display` is the normalised form (operators upper-case, phrases in straight double quotes,
//! parentheses only where precedence needs them). Precedence: NOT binds tightest, then AND, then
//! OR; words side by side mean AND.

use std::fmt;

/// Why an expression was refused; `Display` is the spec's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum KeywordError {
    #[error("Invalid keyword. Paranthesis are imbalanced.")]
    Parentheses,
    #[error("Invalid keyword. Unused Boolean Operators at ends.")]
    DanglingOperator,
    #[error("Invalid keyword. Quotes are either imbalanced or not at ends.")]
    Quotes,
    #[error("Enter a keyword.")]
    Empty,
}

/// A parsed keyword expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    Word(String),
    Phrase(String),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Not(Box<Expr>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    Phrase(String),
    And,
    Or,
    Not,
    Open,
    Close,
}

/// Opening quote characters and the closing character each expects.
const QUOTES: &[(char, char)] = &[
    ('"', '"'),
    ('\'', '\''),
    ('\u{201c}', '\u{201d}'),
    ('\u{2018}', '\u{2019}'),
    ('\u{ab}', '\u{bb}'),
    ('\u{201e}', '\u{201c}'),
];

fn closing_quote(c: char) -> Option<char> {
    QUOTES.iter().find(|(open, _)| *open == c).map(|(_, close)| *close)
}

fn is_quote(c: char) -> bool {
    QUOTES.iter().any(|(open, close)| *open == c || *close == c)
}

/// Splits the input into words, phrases, operators and parentheses. A quote must open at the start
/// of a word and close at its end, with its own closing character.
fn tokenize(input: &str, operators: Operators) -> Result<Vec<Token>, KeywordError> {
    let mut tokens = Vec::new();
    let mut chars = input.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '(' {
            chars.next();
            tokens.push(Token::Open);
        } else if c == ')' {
            chars.next();
            tokens.push(Token::Close);
        } else if let Some(close) = closing_quote(c) {
            chars.next();
            let mut phrase = String::new();
            loop {
                match chars.next() {
                    Some(ch) if ch == close => break,
                    Some(ch) => phrase.push(ch),
                    None => return Err(KeywordError::Quotes),
                }
            }
            // The closing quote must end the word: `"rate cut"s` is refused.
            if chars.peek().is_some_and(|n| !n.is_whitespace() && *n != '(' && *n != ')') {
                return Err(KeywordError::Quotes);
            }
            let phrase = phrase.split_whitespace().collect::<Vec<_>>().join(" ");
            if !phrase.is_empty() {
                tokens.push(Token::Phrase(phrase));
            }
        } else {
            let mut word = String::new();
            while let Some(&n) = chars.peek() {
                if n.is_whitespace() || n == '(' || n == ')' {
                    break;
                }
                // A quote inside a word (`ab"c`) is a quote not at the ends; an apostrophe
                // inside a word (`o'neil`) is part of it.
                if is_quote(n) && n != '\'' && n != '\u{2019}' {
                    return Err(KeywordError::Quotes);
                }
                word.push(n);
                chars.next();
            }
            let spelled = match operators {
                Operators::AnyCase => word.to_ascii_uppercase(),
                Operators::UpperCase => word.clone(),
            };
            tokens.push(match spelled.as_str() {
                "AND" | "&&" => Token::And,
                "OR" | "||" => Token::Or,
                "NOT" => Token::Not,
                _ => Token::Word(word),
            });
        }
    }
    Ok(tokens)
}

/// How operator words are recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operators {
    /// `and`, `Or`, `NOT` alike: keyword expressions of keyword feeds.
    AnyCase,
    /// Only `AND`, `OR`, `NOT` (and `&&`, `||`): a search box, where people type sentences
    /// ("not associated with", "regional or distant") whose small words are words.
    UpperCase,
}

/// Parses and validates a keyword expression, operators in any case.
pub fn parse(input: &str) -> Result<Expr, KeywordError> {
    parse_with(input, Operators::AnyCase)
}

/// Parses and validates a keyword expression, recognising operators as `operators` says.
pub fn parse_with(input: &str, operators: Operators) -> Result<Expr, KeywordError> {
    let tokens = tokenize(input, operators)?;
    let mut depth = 0i32;
    for token in &tokens {
        match token {
            Token::Open => depth += 1,
            Token::Close => {
                depth -= 1;
                if depth < 0 {
                    return Err(KeywordError::Parentheses);
                }
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(KeywordError::Parentheses);
    }
    if tokens.is_empty() {
        return Err(KeywordError::Empty);
    }
    let mut parser = Parser { tokens: &tokens, at: 0 };
    let expr = parser.or()?;
    if parser.at != tokens.len() {
        return Err(KeywordError::DanglingOperator);
    }
    Ok(expr)
}

struct Parser<'a> {
    tokens: &'a [Token],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn or(&mut self) -> Result<Expr, KeywordError> {
        let mut parts = vec![self.and()?];
        while self.peek() == Some(&Token::Or) {
            self.at += 1;
            parts.push(self.and()?);
        }
        Ok(if parts.len() == 1 { parts.pop().expect("one part") } else { Expr::Or(parts) })
    }

    fn and(&mut self) -> Result<Expr, KeywordError> {
        let mut parts = vec![self.unary()?];
        loop {
            match self.peek() {
                Some(Token::And) => {
                    self.at += 1;
                    parts.push(self.unary()?);
                }
                // Side by side: AND.
                Some(Token::Word(_) | Token::Phrase(_) | Token::Not | Token::Open) => parts.push(self.unary()?),
                _ => break,
            }
        }
        Ok(if parts.len() == 1 { parts.pop().expect("one part") } else { Expr::And(parts) })
    }

    fn unary(&mut self) -> Result<Expr, KeywordError> {
        match self.tokens.get(self.at).cloned() {
            Some(Token::Not) => {
                self.at += 1;
                Ok(Expr::Not(Box::new(self.unary()?)))
            }
            Some(Token::Word(w)) => {
                self.at += 1;
                Ok(Expr::Word(w))
            }
            Some(Token::Phrase(p)) => {
                self.at += 1;
                Ok(Expr::Phrase(p))
            }
            Some(Token::Open) => {
                self.at += 1;
                if self.peek() == Some(&Token::Close) {
                    // `()` holds nothing to search for.
                    return Err(KeywordError::Empty);
                }
                let inner = self.or()?;
                match self.peek() {
                    Some(Token::Close) => {
                        self.at += 1;
                        Ok(inner)
                    }
                    _ => Err(KeywordError::DanglingOperator),
                }
            }
            // An operator, or the end, where a word belongs.
            _ => Err(KeywordError::DanglingOperator),
        }
    }
}

impl Expr {
    fn precedence(&self) -> u8 {
        match self {
            Expr::Or(_) => 0,
            Expr::And(_) => 1,
            _ => 2,
        }
    }

    fn write_child(&self, child: &Expr, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if child.precedence() < self.precedence() || (child.precedence() == self.precedence() && child != self) {
            write!(f, "({child})")
        } else {
            write!(f, "{child}")
        }
    }

    /// The words and phrases the expression asks for (not those under NOT), for highlighting.
    pub fn positive_terms(&self) -> Vec<&str> {
        match self {
            Expr::Word(w) | Expr::Phrase(w) => vec![w.as_str()],
            Expr::And(parts) | Expr::Or(parts) => parts.iter().flat_map(Expr::positive_terms).collect(),
            Expr::Not(_) => vec![],
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Word(w) => write!(f, "{w}"),
            // In the first quotes the phrase does not close: `'say "yes"'` stays one phrase.
            Expr::Phrase(p) => {
                let (open, close) = QUOTES.iter().copied().find(|(_, close)| !p.contains(*close)).unwrap_or(QUOTES[0]);
                write!(f, "{open}{p}{close}")
            }
            Expr::Not(inner) => {
                write!(f, "NOT ")?;
                if matches!(**inner, Expr::And(_) | Expr::Or(_)) {
                    write!(f, "({inner})")
                } else {
                    write!(f, "{inner}")
                }
            }
            Expr::And(parts) | Expr::Or(parts) => {
                let op = if matches!(self, Expr::And(_)) { " AND " } else { " OR " };
                for (i, part) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(op)?;
                    }
                    self.write_child(part, f)?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normalised(input: &str) -> String {
        parse(input).unwrap_or_else(|e| panic!("{input}: {e}")).to_string()
    }

    #[test]
    fn operators_are_normalised_and_words_side_by_side_mean_and() {
        assert_eq!(normalised("rate and cut or hike"), "rate AND cut OR hike");
        assert_eq!(normalised("rate cut"), "rate AND cut");
        assert_eq!(normalised("inflation not food"), "inflation AND NOT food");
        assert_eq!(normalised("a || b && c"), "a OR b AND c");
    }

    #[test]
    fn a_phrase_holding_quotes_is_written_in_quotes_it_does_not_close() {
        assert_eq!(normalised("'say \"yes\" now'"), "'say \"yes\" now'");
        assert_eq!(
            normalised("\u{ab}a \" b ' c \u{201d} d \u{2019}\u{bb}"),
            "\u{ab}a \" b ' c \u{201d} d \u{2019}\u{bb}"
        );
        for input in ["'say \"yes\" now'", "\u{ab}a \" b ' c \u{201d} d \u{2019}\u{bb}"] {
            let expr = parse(input).unwrap();
            assert_eq!(parse(&expr.to_string()).unwrap(), expr, "{input} reads back as written");
        }
    }

    #[test]
    fn not_binds_tightest_then_and_then_or() {
        let parsed = parse("a OR b AND NOT c").unwrap();
        assert_eq!(
            parsed,
            Expr::Or(vec![
                Expr::Word("a".into()),
                Expr::And(vec![Expr::Word("b".into()), Expr::Not(Box::new(Expr::Word("c".into())))]),
            ])
        );
        assert_eq!(normalised("(a OR b) AND c"), "(a OR b) AND c");
        assert_eq!(normalised("NOT (a OR b)"), "NOT (a OR b)");
        assert_eq!(normalised("((a))"), "a");
    }

    #[test]
    fn phrases_take_every_usual_quote_style() {
        for input in [
            "\"rate cut\"",
            "'rate cut'",
            "\u{201c}rate cut\u{201d}",
            "\u{2018}rate cut\u{2019}",
            "\u{ab}rate cut\u{bb}",
            "\u{201e}rate  cut\u{201c}",
        ] {
            assert_eq!(parse(input).unwrap(), Expr::Phrase("rate cut".into()), "{input}");
        }
        assert_eq!(normalised("\u{201c}repo rate\u{201d} OR crr"), "\"repo rate\" OR crr");
        assert_eq!(normalised("o'neil"), "o'neil", "an apostrophe inside a word is no quote");
    }

    #[test]
    fn imbalanced_parentheses_are_refused_with_the_spec_message() {
        for input in ["(a OR b", "a OR b)", ")a(", "((a) AND b"] {
            let error = parse(input).unwrap_err();
            assert_eq!(error.to_string(), "Invalid keyword. Paranthesis are imbalanced.", "{input}");
        }
    }

    #[test]
    fn operators_at_the_ends_are_refused_with_the_spec_message() {
        for input in ["AND a", "a OR", "a NOT", "(a AND) b", "a AND OR b", "OR"] {
            let error = parse(input).unwrap_err();
            assert_eq!(error.to_string(), "Invalid keyword. Unused Boolean Operators at ends.", "{input}");
        }
    }

    #[test]
    fn quotes_imbalanced_or_inside_words_are_refused_with_the_spec_message() {
        for input in ["\"rate cut", "rate\"cut\"", "\"rate cut\"s", "\u{201c}rate cut\"", "'open"] {
            let error = parse(input).unwrap_err();
            assert_eq!(error.to_string(), "Invalid keyword. Quotes are either imbalanced or not at ends.", "{input}");
        }
    }

    #[test]
    fn nothing_to_search_for_is_refused() {
        assert_eq!(parse("   ").unwrap_err(), KeywordError::Empty);
        assert_eq!(parse("()").unwrap_err(), KeywordError::Empty);
    }

    #[test]
    fn positive_terms_leave_out_what_is_negated() {
        let parsed = parse("\"repo rate\" AND (hike OR cut) NOT food").unwrap();
        assert_eq!(parsed.positive_terms(), vec!["repo rate", "hike", "cut"]);
    }

    #[test]
    fn a_search_box_reads_only_upper_case_operators() {
        let sentence = parse_with("regional or distant, not associated and rare", Operators::UpperCase).unwrap();
        assert!(
            matches!(&sentence, Expr::And(words) if words.len() == 7 && words.iter().all(|w| matches!(w, Expr::Word(_)))),
            "{sentence:?}"
        );
        assert_eq!(parse_with("steel OR iron", Operators::UpperCase).unwrap().to_string(), "steel OR iron");
        assert_eq!(parse("steel or iron").unwrap().to_string(), "steel OR iron");
        assert_eq!(parse_with("steel OR", Operators::UpperCase), Err(KeywordError::DanglingOperator));
    }
}

//! The keyword-expression parser (`domain::keywords`): any text is parsed or refused with one
//! of the spec's messages, never a panic; and what it accepts is written back (`Display`, the
//! form a feed definition stores) as an expression that parses to the same tree.

use domain::keywords::{parse_with, Operators};

pub fn check(data: &[u8]) {
    let input = String::from_utf8_lossy(data);
    for operators in [Operators::AnyCase, Operators::UpperCase] {
        let Ok(expr) = parse_with(&input, operators) else { continue };
        let written = expr.to_string();
        match parse_with(&written, operators) {
            Ok(again) => assert_eq!(again, expr, "{input:?} was written as {written:?}, which reads differently"),
            Err(error) => panic!("{input:?} was written as {written:?}, which is refused: {error}"),
        }
    }
}

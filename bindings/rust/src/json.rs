//! A small JSON reader that keeps values as the exact text the library wrote, at any depth
//! (serde_json stops at 128 levels, and rejects lone surrogate escapes): the records of
//! [`KeyRecord`](crate::KeyRecord)s and the elements of [`Entries`](crate::Entries). Private.

use std::collections::BTreeMap;

/// A parsed JSON value. Numbers keep their text, so integers are read exactly as written.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Value>),
    Object(BTreeMap<String, Value>),
}

/// Parses one JSON document (surrounding whitespace allowed). `Err` names the byte offset.
#[cfg(test)]
pub(crate) fn parse(text: &str) -> Result<Value, String> {
    let mut p = Parser { bytes: text.as_bytes(), at: 0, depth: 0 };
    let value = p.value()?;
    p.skip_ws();
    if p.at != p.bytes.len() {
        return Err(format!("trailing characters at byte {}", p.at));
    }
    Ok(value)
}

/// Reads the JSON array that is the whole of `text`, calling `item` at the start of each element
/// (it must consume the element).
fn each_item<'a, T>(
    text: &'a str,
    mut item: impl FnMut(&mut Parser<'a>) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    let mut p = Parser { bytes: text.as_bytes(), at: 0, depth: 0 };
    let mut out = Vec::new();
    if !p.eat(b'[') {
        return p.fail("expected '['");
    }
    let mut more = !p.eat(b']');
    while more {
        out.push(item(&mut p)?);
        more = !p.eat(b']');
        if more && !p.eat(b',') {
            return p.fail("expected ',' or ']'");
        }
    }
    p.skip_ws();
    if p.at != p.bytes.len() {
        return p.fail("trailing characters");
    }
    Ok(out)
}

/// The elements of a JSON array, each the exact text it has in `text` (no escape rewritten: a lone
/// surrogate stays as written), checked as JSON at any depth.
pub(crate) fn array_items(text: &str) -> Result<Vec<&str>, String> {
    each_item(text, Parser::raw_value)
}

/// The `[{"key","record"}…]` of `xs_keys_list` as (key, record) pairs, each record the exact
/// text the library wrote. Records are hosts' own JSON, as deep as the library allows, so they
/// are walked without recursion ([`Parser::raw_value`]) rather than built into [`Value`]s.
pub(crate) fn key_records(text: &str) -> Result<Vec<(String, String)>, String> {
    each_item(text, |p| {
        if !p.eat(b'{') {
            return p.fail("expected an object");
        }
        let (mut key, mut record) = (None, None);
        loop {
            match p.member_name()?.as_str() {
                "key" => {
                    p.skip_ws();
                    if p.bytes.get(p.at) != Some(&b'"') {
                        return p.fail("expected the key as a string");
                    }
                    key = Some(p.string()?);
                }
                "record" => record = Some(p.raw_value()?.to_owned()),
                _ => {
                    p.raw_value()?; // a member a newer library adds
                }
            }
            if p.eat(b'}') {
                break;
            }
            if !p.eat(b',') {
                return p.fail("expected ',' or '}'");
            }
        }
        match (key, record) {
            (Some(key), Some(record)) => Ok((key, record)),
            _ => p.fail("an item without \"key\" and \"record\""),
        }
    })
}

/// Deeper than any object the library reports; bounds the recursion on hostile input.
const MAX_DEPTH: usize = 64;

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: usize,
}

impl<'a> Parser<'a> {
    fn fail<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at byte {}", self.at))
    }

    fn skip_ws(&mut self) {
        while matches!(self.bytes.get(self.at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.skip_ws();
        let hit = self.bytes.get(self.at) == Some(&byte);
        if hit {
            self.at += 1;
        }
        hit
    }

    /// A member's name and the ':' after it.
    fn member_name(&mut self) -> Result<String, String> {
        self.skip_ws();
        if self.bytes.get(self.at) != Some(&b'"') {
            return self.fail("expected a member name");
        }
        let name = self.string()?;
        if !self.eat(b':') {
            return self.fail("expected ':'");
        }
        Ok(name)
    }

    /// The text of the next value, checked as JSON, at any depth: containers are tracked on a
    /// stack of their closing brackets instead of by recursion; scalars go through
    /// [`Parser::value`].
    fn raw_value(&mut self) -> Result<&'a str, String> {
        self.skip_ws();
        let start = self.at;
        let mut open: Vec<u8> = Vec::new();
        loop {
            // A value starts here.
            self.skip_ws();
            match self.bytes.get(self.at) {
                Some(&bracket @ (b'{' | b'[')) => {
                    self.at += 1;
                    let close = if bracket == b'{' { b'}' } else { b']' };
                    if !self.eat(close) {
                        open.push(close);
                        if close == b'}' {
                            self.member_name()?;
                        }
                        continue;
                    }
                }
                _ => {
                    self.value()?;
                }
            }
            // A value ended: close what it ends, then expect the next member or element.
            loop {
                let close = match open.last() {
                    Some(&close) => close,
                    None => {
                        // Both ends are at ASCII bytes of a &str, so the slice is UTF-8.
                        return std::str::from_utf8(&self.bytes[start..self.at]).map_err(|e| e.to_string());
                    }
                };
                if self.eat(close) {
                    open.pop();
                } else if self.eat(b',') {
                    if close == b'}' {
                        self.member_name()?;
                    }
                    break;
                } else {
                    return self.fail("expected ',' or a closing bracket");
                }
            }
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, String> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            self.fail("invalid literal")
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        self.skip_ws();
        match self.bytes.get(self.at) {
            Some(b'{') => self.nested(Parser::object),
            Some(b'[') => self.nested(Parser::array),
            Some(b'"') => self.string().map(Value::String),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => self.fail("expected a value"),
        }
    }

    fn nested(&mut self, parse: fn(&mut Self) -> Result<Value, String>) -> Result<Value, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.fail("nested too deeply");
        }
        let value = parse(self);
        self.depth -= 1;
        value
    }

    fn object(&mut self) -> Result<Value, String> {
        self.at += 1; // '{'
        let mut members = BTreeMap::new();
        if self.eat(b'}') {
            return Ok(Value::Object(members));
        }
        loop {
            let name = self.member_name()?;
            members.insert(name, self.value()?);
            if self.eat(b'}') {
                return Ok(Value::Object(members));
            }
            if !self.eat(b',') {
                return self.fail("expected ',' or '}'");
            }
        }
    }

    fn array(&mut self) -> Result<Value, String> {
        self.at += 1; // '['
        let mut items = Vec::new();
        if self.eat(b']') {
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value()?);
            if self.eat(b']') {
                return Ok(Value::Array(items));
            }
            if !self.eat(b',') {
                return self.fail("expected ',' or ']'");
            }
        }
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.at;
        while matches!(self.bytes.get(self.at), Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')) {
            self.at += 1;
        }
        // The scan accepts a superset of JSON numbers; f64's parser rejects the rest (its own
        // extras, "inf" and "nan", cannot get past the scan).
        let text = std::str::from_utf8(&self.bytes[start..self.at]).map_err(|e| e.to_string())?;
        match text.parse::<f64>() {
            Ok(_) => Ok(Value::Number(text.to_owned())),
            Err(_) => self.fail("invalid number"),
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self.bytes.get(self.at..self.at + 4).and_then(|d| std::str::from_utf8(d).ok());
        match digits.and_then(|d| u32::from_str_radix(d, 16).ok()) {
            Some(unit) => {
                self.at += 4;
                Ok(unit)
            }
            None => self.fail("invalid \\u escape"),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.at += 1; // '"'
        let mut out = String::new();
        loop {
            let start = self.at;
            while !matches!(self.bytes.get(self.at), Some(b'"' | b'\\') | None) {
                self.at += 1;
            }
            // The input is a &str and we stop only at ASCII bytes, so this slice is UTF-8.
            out.push_str(std::str::from_utf8(&self.bytes[start..self.at]).map_err(|e| e.to_string())?);
            match self.bytes.get(self.at) {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    self.escape(&mut out)?;
                }
                _ => return self.fail("unterminated string"),
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), String> {
        // A match rather than let-else: the crate builds with Rust 1.63 (Debian 12's rustc).
        let kind = match self.bytes.get(self.at) {
            Some(&kind) => kind,
            None => return self.fail("unterminated escape"),
        };
        self.at += 1;
        match kind {
            b'"' => out.push('"'),
            b'\\' => out.push('\\'),
            b'/' => out.push('/'),
            b'b' => out.push('\u{8}'),
            b'f' => out.push('\u{c}'),
            b'n' => out.push('\n'),
            b'r' => out.push('\r'),
            b't' => out.push('\t'),
            b'u' => {
                let unit = self.hex4()?;
                let code = if (0xD800..0xDC00).contains(&unit) && self.bytes[self.at..].starts_with(b"\\u") {
                    self.at += 2;
                    let low = self.hex4()?;
                    if (0xDC00..0xE000).contains(&low) {
                        0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        // A high surrogate followed by something else: both are kept, the lone
                        // surrogate as U+FFFD (a Rust String cannot hold it).
                        out.push('\u{FFFD}');
                        low
                    }
                } else {
                    unit
                };
                out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
            }
            _ => return self.fail("invalid escape"),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Value {
        Value::String(text.to_owned())
    }

    #[test]
    fn parses_every_kind_of_value() {
        let v = parse(r#" {"a": [1, -2.5e3, true, false, null], "b": {"c": "d"}, "e": []} "#).unwrap();
        let want = Value::Object(BTreeMap::from([
            (
                "a".to_owned(),
                Value::Array(vec![
                    Value::Number("1".into()),
                    Value::Number("-2.5e3".into()),
                    Value::Bool(true),
                    Value::Bool(false),
                    Value::Null,
                ]),
            ),
            ("b".to_owned(), Value::Object(BTreeMap::from([("c".to_owned(), s("d"))]))),
            ("e".to_owned(), Value::Array(vec![])),
        ]));
        assert_eq!(v, want);
    }

    #[test]
    fn decodes_escapes_and_surrogate_pairs() {
        assert_eq!(parse(r#""a\"b\\c\/d\b\f\n\r\t""#).unwrap(), s("a\"b\\c/d\u{8}\u{c}\n\r\t"));
        assert_eq!(parse(r#""\u00e9\ud83d\ude00""#).unwrap(), s("é😀"));
        assert_eq!(parse(r#""\ud83d""#).unwrap(), s("\u{FFFD}"));
        assert_eq!(parse(r#""\ud83dx""#).unwrap(), s("\u{FFFD}x"));
        assert_eq!(parse(r#""\ud83d\u0041""#).unwrap(), s("\u{FFFD}A"));
        assert_eq!(parse("\"naïve\"").unwrap(), s("naïve"));
    }

    #[test]
    fn key_records_keep_each_record_as_written_at_any_depth() {
        let deep = format!("{}1{}", "[".repeat(300), "]".repeat(300));
        let text = format!(
            r#"[{{"key":"a:\"1\"","record":{{"sessionId":"s","n":1.50,"o":{{"x":[true,null,"]}}"]}}}}}},{{"record":{deep},"key":"b","later":{{"k":[]}}}}]"#
        );
        let got = key_records(&text).unwrap();
        assert_eq!(
            got,
            vec![
                ("a:\"1\"".to_owned(), r#"{"sessionId":"s","n":1.50,"o":{"x":[true,null,"]}"]}}"#.to_owned()),
                ("b".to_owned(), deep),
            ]
        );
        assert_eq!(key_records(" [ ] ").unwrap(), vec![]);
        assert_eq!(key_records(r#"[{"key":"k","record":{}}]"#).unwrap(), vec![("k".to_owned(), "{}".to_owned())]);
    }

    #[test]
    fn array_items_keep_each_element_as_written() {
        let text = r#" [ {"a":"\ud83d"} , 1e400,[[]] ] "#;
        assert_eq!(array_items(text).unwrap(), vec![r#"{"a":"\ud83d"}"#, "1e400", "[[]]"]);
        assert_eq!(array_items("[]").unwrap(), Vec::<&str>::new());
        assert_eq!(array_items("[1,]").unwrap_err(), "expected a value at byte 3");
        assert_eq!(array_items("[1] 2").unwrap_err(), "trailing characters at byte 4");
    }

    #[test]
    fn key_records_reject_malformed_lists() {
        assert_eq!(key_records("{}").unwrap_err(), "expected '[' at byte 0");
        assert_eq!(key_records(r#"[{"key":"k"}]"#).unwrap_err(), "an item without \"key\" and \"record\" at byte 12");
        assert_eq!(key_records(r#"[{"key":1,"record":{}}]"#).unwrap_err(), "expected the key as a string at byte 8");
        assert_eq!(key_records(r#"[{"key":"k","record":{"a" 1}}]"#).unwrap_err(), "expected ':' at byte 26");
        assert_eq!(
            key_records(r#"[{"key":"k","record":[1 2]}]"#).unwrap_err(),
            "expected ',' or a closing bracket at byte 24"
        );
        assert_eq!(key_records(r#"[{"key":"k","record":{}}] x"#).unwrap_err(), "trailing characters at byte 26");
    }

    #[test]
    fn rejects_malformed_text_with_its_offset() {
        assert_eq!(parse("{\"a\" 1}").unwrap_err(), "expected ':' at byte 5");
        assert_eq!(parse("[1,]").unwrap_err(), "expected a value at byte 3");
        assert_eq!(parse("\"abc").unwrap_err(), "unterminated string at byte 4");
        assert_eq!(parse("1 2").unwrap_err(), "trailing characters at byte 2");
        assert_eq!(parse("tru").unwrap_err(), "invalid literal at byte 0");
        assert_eq!(parse("1e").unwrap_err(), "invalid number at byte 2");
        assert_eq!(parse("\"\\x\"").unwrap_err(), "invalid escape at byte 3");
        assert_eq!(parse(&"[".repeat(100)).unwrap_err(), "nested too deeply at byte 64");
    }
}

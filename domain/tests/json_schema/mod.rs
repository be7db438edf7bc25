//! A structural JSON Schema check: the keywords schemars generates for our event types (`type`,
//! `properties`, `required`, `additionalProperties`, `items`, `enum`, `const`, `oneOf`, `anyOf`,
//! `allOf`, `$ref` into `$defs`), enough to tell whether an example payload fits its generated
//! schema without a full validator's dependencies. Formats and numeric bounds are not checked.

use serde_json::Value;

/// Returns the first place `value` breaks `schema` (whose `$defs` are in `root`), as a path and a
/// reason; `None` when it fits.
pub fn violation(root: &Value, schema: &Value, value: &Value, path: &str) -> Option<String> {
    let schema = match schema {
        Value::Bool(true) => return None,
        Value::Bool(false) => return Some(format!("{path}: nothing is allowed here")),
        Value::Object(map) => map,
        _ => return Some(format!("{path}: the schema is not an object")),
    };
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let name = reference.strip_prefix("#/$defs/").unwrap_or(reference);
        let Some(target) = root.get("$defs").and_then(|d| d.get(name)) else {
            return Some(format!("{path}: unresolved {reference}"));
        };
        if let Some(broken) = violation(root, target, value, path) {
            return Some(broken);
        }
    }
    if let Some(types) = schema.get("type") {
        let allowed: Vec<&str> = match types {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        if !allowed.iter().any(|t| is_type(value, t)) {
            return Some(format!("{path}: {value} is not {allowed:?}"));
        }
    }
    if let Some(constant) = schema.get("const") {
        if constant != value {
            return Some(format!("{path}: {value} is not {constant}"));
        }
    }
    if let Some(Value::Array(options)) = schema.get("enum") {
        if !options.contains(value) {
            return Some(format!("{path}: {value} is none of {options:?}"));
        }
    }
    for keyword in ["oneOf", "anyOf"] {
        if let Some(Value::Array(alternatives)) = schema.get(keyword) {
            let fitting = alternatives.iter().filter(|s| violation(root, s, value, path).is_none()).count();
            let fits = if keyword == "oneOf" { fitting == 1 } else { fitting >= 1 };
            if !fits {
                return Some(format!("{path}: {value} fits {fitting} of the {keyword} alternatives"));
            }
        }
    }
    if let Some(Value::Array(all)) = schema.get("allOf") {
        if let Some(broken) = all.iter().find_map(|s| violation(root, s, value, path)) {
            return Some(broken);
        }
    }
    if let Value::Object(fields) = value {
        let properties = schema.get("properties").and_then(Value::as_object);
        for name in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
            if !fields.contains_key(name.as_str().unwrap_or_default()) {
                return Some(format!("{path}: {name} is required"));
            }
        }
        for (name, field) in fields {
            let here = format!("{path}.{name}");
            match properties.and_then(|p| p.get(name)) {
                Some(property) => {
                    if let Some(broken) = violation(root, property, field, &here) {
                        return Some(broken);
                    }
                }
                None => {
                    if let Some(extra) = schema.get("additionalProperties") {
                        if let Some(broken) = violation(root, extra, field, &here) {
                            return Some(broken);
                        }
                    }
                }
            }
        }
    }
    if let (Value::Array(items), Some(item)) = (value, schema.get("items")) {
        for (i, element) in items.iter().enumerate() {
            if let Some(broken) = violation(root, item, element, &format!("{path}[{i}]")) {
                return Some(broken);
            }
        }
    }
    None
}

fn is_type(value: &Value, name: &str) -> bool {
    match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "number" => value.is_number(),
        "integer" => value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => false,
    }
}

#[test]
fn the_check_tells_a_fitting_value_from_a_broken_one() {
    let schema = serde_json::json!({
        "type": "object",
        "properties": { "A": { "$ref": "#/$defs/Fields" } },
        "required": ["A"],
        "additionalProperties": false,
        "$defs": { "Fields": { "type": "object", "properties": { "n": { "type": ["integer", "null"] } }, "required": ["n"] } }
    });
    assert_eq!(violation(&schema, &schema, &serde_json::json!({ "A": { "n": 1 } }), "$"), None);
    assert_eq!(violation(&schema, &schema, &serde_json::json!({ "A": { "n": null } }), "$"), None);
    assert!(violation(&schema, &schema, &serde_json::json!({ "A": { "n": "1" } }), "$").is_some());
    assert!(violation(&schema, &schema, &serde_json::json!({ "A": {} }), "$").is_some());
    assert!(violation(&schema, &schema, &serde_json::json!({ "A": { "n": 1 }, "B": 2 }), "$").is_some());
}

//! Feature flags named by the spec. A flag is on only when its stored value is the string `on`.

/// Every flag the spec names, with the value a user has until someone sets it.
///
/// Features this instance ships are on; pricing gates and the pulse variant's WhatsApp
/// verification are off, since a self-hosted instance has neither plans nor a WhatsApp provider.
pub const DEFAULT_FLAGS: &[(&str, &str)] = &[
    ("my_data", "on"),
    ("search", "on"),
    ("ask_needl_full_screen", "on"),
    ("bookmarks", "on"),
    ("tags", "on"),
    ("comments", "on"),
    ("assistants", "on"),
    ("report_generation", "on"),
    ("needl_report", "on"),
    ("notebooks", "on"),
    ("my_feeds", "on"),
    ("doc_summarization", "on"),
    ("doc_full_screen_view", "on"),
    ("doc_hide_source", "off"),
    ("doc_open_in_source", "on"),
    ("doc_open_in_new_tab", "on"),
    ("doc_sentiment_analysis", "on"),
    ("doc_table_extraction", "on"),
    ("doc_share", "on"),
    ("doc_download", "on"),
    ("doc_delete", "on"),
    ("doc_mark_as_read", "on"),
    ("website_priority", "on"),
    ("website_unfollow", "on"),
    ("ask_needl_copilot", "on"),
    ("ask_needl_pro", "on"),
    ("ask_needl_history", "on"),
    ("ask_needl_upload", "on"),
    ("ask_needl_dataset_selection_needl_universe", "on"),
    ("is_pricing", "off"),
    ("is_pulse_whatsapp_verification_enabled", "off"),
];

/// Whether a stored flag value turns the feature on: only the exact string `on` does.
pub fn is_on(value: &str) -> bool {
    value == "on"
}

/// Whether `name` is a flag this instance knows.
pub fn is_known(name: &str) -> bool {
    DEFAULT_FLAGS.iter().any(|(flag, _)| *flag == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_exact_string_on_turns_a_flag_on() {
        assert!(is_on("on"));
        for value in ["ON", "On", "true", "1", "yes", "on ", ""] {
            assert!(!is_on(value), "{value:?} must not count as on");
        }
    }

    #[test]
    fn the_flags_of_all_three_spec_documents_are_known() {
        for flag in [
            "ask_needl_copilot",
            "notebooks",
            "is_pricing",
            "is_pulse_whatsapp_verification_enabled",
            "doc_table_extraction",
            "ask_needl_dataset_selection_needl_universe",
        ] {
            assert!(is_known(flag), "{flag}");
        }
        assert!(!is_known("no_such_flag"));
    }
}

//! A decision waited for: its kind, the player, the options' labels in order and the rule point
//! (`hkk._decisions.Decision`).

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub kind: &'static str,
    pub player: usize,
    pub options: Vec<String>,
    pub rule: Option<&'static str>,
}

//! Conditions on the state (`hkk._conditions`, `hkk._cards.condition`): a quantity seen from
//! the ability's controller ("own_...") or his opponent ("opponent_..."), compared with a number
//! or another quantity. An automatic ability fires only while its condition holds
//! (D-conditions). The quantities are `hkk._cards.quantities`'; any other is refused by name.

use crate::game::Game;

/// `hkk._cards.quantities`: a number of one player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    Vp,
    Hp,
    Components,
    Hand,
    Creatures,
    Buildings,
    /// Poison counters on his permanents (K 121.1).
    Poison,
}

impl Quantity {
    fn parse(kind: &str) -> Option<Quantity> {
        Some(match kind {
            "vp" => Quantity::Vp,
            "hp" => Quantity::Hp,
            "components" => Quantity::Components,
            "hand" => Quantity::Hand,
            "creatures" => Quantity::Creatures,
            "buildings" => Quantity::Buildings,
            "poison" => Quantity::Poison,
            _ => return None,
        })
    }

    fn read(self, game: &Game, player: usize) -> i64 {
        let p = &game.players[player];
        let count = |creature: bool| game.permanents_of_kind(creature, Some(player)).count() as i64;
        match self {
            Quantity::Vp => p.vp,
            Quantity::Hp => p.hp,
            Quantity::Components => p.components,
            Quantity::Hand => p.hand.len() as i64,
            Quantity::Creatures => count(true),
            Quantity::Buildings => count(false),
            Quantity::Poison => game
                .permanents
                .iter()
                .filter(|perm| perm.controller == player)
                .flat_map(|perm| &perm.counters)
                .filter(|(name, _)| &**name == "poison")
                .map(|(_, n)| n)
                .sum(),
        }
    }
}

/// `own_vp`, `opponent_creatures`...: whose, and which number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Named {
    pub own: bool,
    pub quantity: Quantity,
}

impl Named {
    /// The name's quantity, or None for a name the native core does not know.
    pub fn parse(name: &str) -> Option<Named> {
        let (whose, kind) = name.split_once('_')?;
        let own = match whose {
            "own" => true,
            "opponent" => false,
            _ => return None,
        };
        Some(Named {
            own,
            quantity: Quantity::parse(kind)?,
        })
    }

    /// `value_of`: its value for an ability of `controller`.
    pub fn read(self, game: &Game, controller: usize) -> i64 {
        let player = if self.own { controller } else { 1 - controller };
        self.quantity.read(game, player)
    }
}

/// `COMPARE`: the four comparisons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    AtLeast,
    AtMost,
    MoreThan,
    FewerThan,
}

impl Compare {
    pub fn parse(name: &str) -> Option<Compare> {
        Some(match name {
            "at_least" => Compare::AtLeast,
            "at_most" => Compare::AtMost,
            "more_than" => Compare::MoreThan,
            "fewer_than" => Compare::FewerThan,
            _ => return None,
        })
    }

    pub fn test(self, left: i64, right: i64) -> bool {
        match self {
            Compare::AtLeast => left >= right,
            Compare::AtMost => left <= right,
            Compare::MoreThan => left > right,
            Compare::FewerThan => left < right,
        }
    }
}

/// What a quantity is compared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    Number(i64),
    Quantity(Named),
}

/// A condition: `of` compared with a bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Condition {
    pub of: Named,
    pub compare: Compare,
    pub bound: Bound,
}

/// A condition as the Python side hands it over: `of`, the comparison's name, and its bound
/// as a number or a quantity's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlainCondition {
    pub of: String,
    pub compare: String,
    pub number: Option<i64>,
    pub quantity: Option<String>,
}

impl PlainCondition {
    /// The condition, or the quantity or comparison the native core does not know.
    pub fn parse(&self) -> Result<Condition, String> {
        let named = |name: &str| Named::parse(name).ok_or_else(|| format!("quantity `{name}`"));
        let of = named(&self.of)?;
        let compare = Compare::parse(&self.compare)
            .ok_or_else(|| format!("comparison `{}`", self.compare))?;
        let bound = match (&self.quantity, self.number) {
            (Some(name), _) => Bound::Quantity(named(name)?),
            (None, Some(n)) => Bound::Number(n),
            (None, None) => return Err("a condition without a bound".into()),
        };
        Ok(Condition { of, compare, bound })
    }
}

impl Condition {
    /// `holds`: does it hold now for an ability controlled by `controller`?
    pub fn holds(&self, game: &Game, controller: usize) -> bool {
        let left = self.of.read(game, controller);
        let right = match self.bound {
            Bound::Number(n) => n,
            Bound::Quantity(named) => named.read(game, controller),
        };
        self.compare.test(left, right)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_comparisons_parse_and_unknown_ones_are_named() {
        let plain = PlainCondition {
            of: "opponent_creatures".into(),
            compare: "more_than".into(),
            number: None,
            quantity: Some("own_creatures".into()),
        };
        let c = plain.parse().unwrap();
        assert!(!c.of.own && c.of.quantity == Quantity::Creatures);
        let odd = PlainCondition {
            of: "own_luck".into(),
            ..plain
        };
        assert!(odd.parse().unwrap_err().contains("own_luck"));
    }

    #[test]
    fn comparisons_are_pythons_operators() {
        assert!(Compare::AtLeast.test(2, 2) && !Compare::MoreThan.test(2, 2));
        assert!(Compare::AtMost.test(1, 2) && Compare::FewerThan.test(1, 2));
    }
}

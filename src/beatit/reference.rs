//! The plain solver the fast ones are held to: collect the reachable positions, then recompute
//! every value from the previous round's values until nothing changes. A position decided in
//! round `k` is won or lost in exactly `k` plies; what is never decided is a draw. Slow and
//! obviously right; for small suits in tests.

use std::collections::BTreeMap;

use super::state::{State, Step};
use super::{Solved, Value, Values};

/// Every position reachable from a root, solved by rounds.
pub struct Reference {
    values: BTreeMap<State, Solved>,
}

impl Reference {
    pub fn solve(root: State) -> Reference {
        let mut children: BTreeMap<State, Vec<Option<(State, bool)>>> = BTreeMap::new();
        let mut todo = vec![root];
        while let Some(s) = todo.pop() {
            if children.contains_key(&s) {
                continue;
            }
            let kids: Vec<Option<(State, bool)>> = s
                .moves()
                .map(|m| match s.step(m) {
                    Step::Win => None,
                    Step::Next { state, flip } => Some((state, flip)),
                })
                .collect();
            todo.extend(kids.iter().flatten().map(|&(c, _)| c));
            children.insert(s, kids);
        }
        let mut decided: BTreeMap<State, (Value, u32)> = BTreeMap::new();
        for round in 1.. {
            let mut new = Vec::new();
            for (s, kids) in &children {
                if decided.contains_key(s) {
                    continue;
                }
                // What each move gives the mover, as far as the previous rounds know.
                let outcomes: Vec<Option<Value>> = kids
                    .iter()
                    .map(|k| match k {
                        None => Some(Value::Win),
                        Some((c, flip)) => decided
                            .get(c)
                            .map(|&(v, _)| if *flip { v.flip() } else { v }),
                    })
                    .collect();
                if outcomes.contains(&Some(Value::Win)) {
                    new.push((*s, Value::Win));
                } else if outcomes.iter().all(|o| *o == Some(Value::Loss)) {
                    new.push((*s, Value::Loss));
                }
            }
            if new.is_empty() {
                break;
            }
            for (s, v) in new {
                decided.insert(s, (v, round));
            }
        }
        let values = children
            .keys()
            .map(|s| {
                let solved = match decided.get(s) {
                    Some(&(value, plies)) => Solved {
                        value,
                        plies: Some(plies),
                    },
                    None => Solved {
                        value: Value::Draw,
                        plies: None,
                    },
                };
                (*s, solved)
            })
            .collect();
        Reference { values }
    }

    pub fn positions(&self) -> usize {
        self.values.len()
    }

    /// Every reachable position with its value.
    pub fn iter(&self) -> impl Iterator<Item = (&State, &Solved)> {
        self.values.iter()
    }
}

impl Values for Reference {
    fn solved(&self, s: &State) -> Option<Solved> {
        self.values.get(s).copied()
    }
}

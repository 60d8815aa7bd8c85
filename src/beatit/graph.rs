//! Retrograde analysis over the positions reachable from one position, for any suit length up
//! to 13: a breadth-first walk stores every reachable position once (the transposition table)
//! with its moves, then values are propagated backwards from the immediate wins exactly as in
//! [`super::dense`]. When more than `limit` positions are reachable it stops and says so: its
//! answers are exact or absent, never guessed.

use std::collections::HashMap;

use thiserror::Error;

use super::state::{State, Step};
use super::{Solved, Value, Values};

#[derive(Debug, Error, PartialEq, Eq)]
pub enum GraphError {
    #[error(
        "not solved: more than {limit} positions are reachable (raise --node-limit; the value is unknown)"
    )]
    NodeLimit { limit: u64 },
}

/// The solved reachable graph of one root.
pub struct Graph {
    n: u8,
    ids: HashMap<u64, u32>,
    /// Per node: value (`None` = draw) and plies.
    values: Vec<Option<(Value, u32)>>,
}

impl Graph {
    /// Walks and solves everything reachable from `root`, or fails past `limit` positions.
    pub fn solve(root: State, limit: u64) -> Result<Graph, GraphError> {
        let mut ids: HashMap<u64, u32> = HashMap::new();
        let mut nodes: Vec<State> = Vec::new();
        // Forward edges in one array: node i's children are edges[start[i]..start[i+1]], each a
        // child id with the turn-passing bit on top (u32::MAX-free: ids stay below 2^31).
        let mut start: Vec<u64> = vec![0];
        let mut edges: Vec<u32> = Vec::new();
        let mut win_now: Vec<bool> = Vec::new();
        ids.insert(root.key(), 0);
        nodes.push(root);
        let mut i = 0;
        while i < nodes.len() {
            let s = nodes[i];
            let immediate = s.wins_now();
            win_now.push(immediate);
            // Even a position won at once has its other moves walked: lines and the play
            // command look at every move's outcome.
            for m in s.moves() {
                if let Step::Next { state, flip } = s.step(m) {
                    let next = nodes.len() as u32;
                    let id = *ids.entry(state.key()).or_insert(next);
                    if id == next {
                        if nodes.len() as u64 >= limit || next >= 1 << 31 {
                            return Err(GraphError::NodeLimit { limit });
                        }
                        nodes.push(state);
                    }
                    edges.push(id | (flip as u32) << 31);
                }
            }
            start.push(edges.len() as u64);
            i += 1;
        }
        let count = nodes.len();
        drop(nodes);
        // Reverse edges, counting sort by child.
        let mut rstart = vec![0u64; count + 1];
        for &e in &edges {
            rstart[(e & !(1 << 31)) as usize + 1] += 1;
        }
        for k in 0..count {
            rstart[k + 1] += rstart[k];
        }
        let mut fill = rstart.clone();
        let mut redges = vec![0u32; edges.len()];
        for q in 0..count {
            for &e in &edges[start[q] as usize..start[q + 1] as usize] {
                let c = (e & !(1 << 31)) as usize;
                redges[fill[c] as usize] = q as u32 | (e & 1 << 31);
                fill[c] += 1;
            }
        }
        drop(fill);
        let mut left: Vec<u32> = (0..count)
            .map(|q| (start[q + 1] - start[q]) as u32)
            .collect();
        drop(edges);
        let mut values: Vec<Option<(Value, u32)>> = vec![None; count];
        let mut queue: Vec<u32> = Vec::new();
        for q in 0..count {
            if win_now[q] {
                values[q] = Some((Value::Win, 1));
                queue.push(q as u32);
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let p = queue[head] as usize;
            head += 1;
            let (v, depth) = values[p].expect("queued nodes are decided");
            for &e in &redges[rstart[p] as usize..rstart[p + 1] as usize] {
                let q = (e & !(1 << 31)) as usize;
                let flip = e >> 31 == 1;
                if values[q].is_some() {
                    continue;
                }
                let for_q = if flip { v.flip() } else { v };
                if for_q == Value::Win {
                    values[q] = Some((Value::Win, depth + 1));
                    queue.push(q as u32);
                } else {
                    left[q] -= 1;
                    if left[q] == 0 {
                        values[q] = Some((Value::Loss, depth + 1));
                        queue.push(q as u32);
                    }
                }
            }
        }
        Ok(Graph {
            n: root.n,
            ids,
            values,
        })
    }

    /// Number of reachable positions.
    pub fn positions(&self) -> usize {
        self.values.len()
    }
}

impl Values for Graph {
    fn solved(&self, s: &State) -> Option<Solved> {
        if s.n != self.n {
            return None;
        }
        let id = *self.ids.get(&s.key())?;
        Some(match self.values[id as usize] {
            Some((value, plies)) => Solved {
                value,
                plies: Some(plies),
            },
            None => Solved {
                value: Value::Draw,
                plies: None,
            },
        })
    }
}

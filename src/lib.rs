//! ansatz: constructive search of Beggar-My-Neighbour games (Casella's Ansatz), as a library.
//!
//! The `ansatz` binary is a thin command-line face over these modules; nothing here prints.

pub mod ansatz;
pub mod assemble;
pub mod backward;
pub mod bench;
pub mod card;
pub mod cli;
pub mod deal;
pub mod dist;
pub mod engine;
pub mod library;
pub mod notation;
pub mod position;
pub mod provenance;
pub mod reproduce;
pub mod rng;
pub mod search;

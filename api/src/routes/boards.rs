//! Custom feeds (boards) over HTTP: the user's feeds, their documents and a draft's preview, the
//! builder's choices, templates and suggestions, and which feeds follow a source ("Add to
//! Feeds"). The rules and reads are in [`service::feeds`].
//!
//! A feed is its owner's alone: anyone else's feed id is not found (404).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, ErrorBody};
use crate::paging::Paging;
use service::feeds::choices::{self, AcceptBody, FeedChoices, QuestionGroups, Suggestions};
use service::feeds::documents::{self, BoardDocumentsResult, Preview, PreviewBody};
use service::feeds::refine::{
    self, ApplySuggestion, FeedMetadataResult, FeedSources, KeywordSuggestions, SmartsBody, SmartsResult,
};
use service::feeds::templates::{self, SetTemplatesBody, Templates};
use service::feeds::topics::{self, FeedbackBody, FeedbackResult};
use service::feeds::{self, AlertsBody, BoardList, BoardResult, DefinitionBody, FeedChannels, SourceBoards};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_my_boards, create_board))
        .routes(routes!(get_board, define_board, delete_board))
        .routes(routes!(undo_board))
        .routes(routes!(board_feedback))
        .routes(routes!(enable_board))
        .routes(routes!(duplicate_board))
        .routes(routes!(set_alerts))
        .routes(routes!(board_channels, share_my_board))
        .routes(routes!(feed_choices))
        .routes(routes!(feed_templates))
        .routes(routes!(set_feed_templates))
        .routes(routes!(list_suggestions))
        .routes(routes!(accept_suggestions))
        .routes(routes!(feed_questions))
        .routes(routes!(source_boards, set_source_boards))
        .routes(routes!(board_documents))
        .routes(routes!(preview_draft))
        .routes(routes!(channel_board_documents))
        .routes(routes!(board_sources))
        .routes(routes!(board_metadata))
        .routes(routes!(board_keyword_suggestions))
        .routes(routes!(apply_board_suggestion))
        .routes(routes!(ai_smarts))
}

/// The user's feeds, newest first (with the `is_pricing` flag on, only enabled ones).
#[utoipa::path(get, path = "/boards/v2", tag = "boards", security(("token" = [])),
    responses((status = 200, body = BoardList)))]
async fn list_my_boards(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<BoardList>> {
    Ok(ApiJson(feeds::list(&state, &user).await?))
}

/// Makes a feed from a definition. 422 with the spec's keyword messages, `feed name is required`,
/// or `feed_matches_everything` for a definition that would follow everything.
#[utoipa::path(post, path = "/boards/v2", tag = "boards", security(("token" = [])), request_body = DefinitionBody,
    responses((status = 200, body = BoardResult), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_board(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<DefinitionBody>,
) -> ApiResult<ApiJson<BoardResult>> {
    Ok(ApiJson(feeds::create(&state, &user, body).await?))
}

/// One of the user's feeds, with its definition.
#[utoipa::path(get, path = "/boards/{id}", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the feed's board_id")),
    responses((status = 200, body = BoardResult), (status = 404, body = ErrorBody)))]
async fn get_board(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<ApiJson<BoardResult>> {
    Ok(ApiJson(BoardResult { results: feeds::get(&state, &user, &id).await? }))
}

/// Changes a feed's definition. Its documents are the new definition's at once, over the whole
/// history; the change may be undone.
#[utoipa::path(put, path = "/boards/{id}", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the feed's board_id")), request_body = DefinitionBody,
    responses((status = 200, body = BoardResult), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn define_board(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<DefinitionBody>,
) -> ApiResult<ApiJson<BoardResult>> {
    Ok(ApiJson(feeds::define(&state, &user, &id, body.definition).await?))
}

/// Deletes a feed.
#[utoipa::path(delete, path = "/boards/{id}", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the feed's board_id")),
    responses((status = 204), (status = 404, body = ErrorBody)))]
async fn delete_board(State(state): State<AppState>, user: AuthUser, Path(id): Path<String>) -> ApiResult<StatusCode> {
    feeds::delete(&state, &user, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Goes back to the definition before the last change. 422 `nothing_to_undo`.
#[utoipa::path(post, path = "/boards/{id}/undo", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the feed's board_id")),
    responses((status = 200, body = BoardResult), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn undo_board(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<ApiJson<BoardResult>> {
    Ok(ApiJson(feeds::undo(&state, &user, &id).await?))
}

/// "More like this" (`more: true`) or "less like this" on a document of an AI feed: refines the
/// feed's topics, so its documents change at once (with the embedding model; without it the
/// feedback is kept, `applied: false`). 422 `feed_has_no_topics` for a feed without topics,
/// 404 for a feed or document that is not the viewer's to read.
#[utoipa::path(post, path = "/boards/{id}/feedback", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the feed's board_id")), request_body = FeedbackBody,
    responses((status = 200, body = FeedbackResult), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn board_feedback(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<FeedbackBody>,
) -> ApiResult<ApiJson<FeedbackResult>> {
    Ok(ApiJson(topics::feedback(&state, &user, &id, body).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct EnableBody {
    pub enabled: bool,
}

/// Turns a feed on or off.
#[utoipa::path(put, path = "/boards/enable/{id}", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the feed's board_id")), request_body = EnableBody,
    responses((status = 200, body = BoardResult), (status = 404, body = ErrorBody)))]
async fn enable_board(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<EnableBody>,
) -> ApiResult<ApiJson<BoardResult>> {
    Ok(ApiJson(feeds::enable(&state, &user, &id, body.enabled).await?))
}

/// Makes a copy of a feed, named "{name} (copy)".
#[utoipa::path(post, path = "/boards/{id}/duplicate", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the feed's board_id")),
    responses((status = 200, body = BoardResult), (status = 404, body = ErrorBody)))]
async fn duplicate_board(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<ApiJson<BoardResult>> {
    Ok(ApiJson(feeds::duplicate(&state, &user, &id).await?))
}

/// Sets how a feed alerts on new matches (`off`, `immediate`, `digest`) and its priority.
#[utoipa::path(put, path = "/boards/{id}/alerts", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the feed's board_id")), request_body = AlertsBody,
    responses((status = 200, body = BoardResult), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn set_alerts(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<AlertsBody>,
) -> ApiResult<ApiJson<BoardResult>> {
    Ok(ApiJson(feeds::set_alerts(&state, &user, &id, body).await?))
}

/// The groups a feed is shared into.
#[utoipa::path(get, path = "/boards/{id}/channels", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the feed's board_id")),
    responses((status = 200, body = FeedChannels), (status = 404, body = ErrorBody)))]
async fn board_channels(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<ApiJson<FeedChannels>> {
    Ok(ApiJson(feeds::channels(&state, &user, &id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ShareBody {
    /// Groups the user owns, 1 to 20.
    pub channel_ids: Vec<String>,
}

/// Shares a feed into groups the user owns; each member sees the documents of it they may read.
#[utoipa::path(post, path = "/boards/{id}/channels", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the feed's board_id")), request_body = ShareBody,
    responses((status = 200, body = FeedChannels), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn share_my_board(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ShareBody>,
) -> ApiResult<ApiJson<FeedChannels>> {
    Ok(ApiJson(feeds::share(&state, &user, &id, body.channel_ids).await?))
}

/// What the builder offers: readable sources, categories, date ranges and finance topics.
#[utoipa::path(get, path = "/boards/feed_choices", tag = "boards", security(("token" = [])),
    responses((status = 200, body = FeedChoices)))]
async fn feed_choices(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<FeedChoices>> {
    Ok(ApiJson(choices::feed_choices(&state, &user).await?))
}

/// Ready-made feed definitions: the instance's own (`kind: organization`), in the order an
/// administrator saved them, then one per finance topic (`kind: builtin`).
#[utoipa::path(get, path = "/connect/getFeedTemplates", tag = "boards", security(("token" = [])),
    responses((status = 200, body = Templates)))]
async fn feed_templates(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<Templates>> {
    Ok(ApiJson(templates::templates(&state, &user).await?))
}

/// Replaces the instance's own templates with the list sent, in its order (administrators only,
/// else 403). A template without `id` is added; one left out is removed. Every definition is
/// checked as a feed's would be; one refusal (422, its message naming the template's place in
/// the list) records nothing. Answers every template, as `getFeedTemplates` does.
#[utoipa::path(post, path = "/connect/setFeedTemplates", tag = "boards", security(("token" = [])),
    request_body = SetTemplatesBody,
    responses((status = 200, body = Templates), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn set_feed_templates(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<SetTemplatesBody>,
) -> ApiResult<ApiJson<Templates>> {
    Ok(ApiJson(templates::set_templates(&state, &user, body).await?))
}

/// Feeds suggested from what the user tags, reads and follows.
#[utoipa::path(get, path = "/boards/suggestions", tag = "boards", security(("token" = [])),
    responses((status = 200, body = Suggestions)))]
async fn list_suggestions(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<Suggestions>> {
    Ok(ApiJson(choices::suggestions(&state, &user).await?))
}

/// Makes a feed of each accepted suggestion. 422 `unknown_suggestion` for one no longer offered.
#[utoipa::path(post, path = "/boards/suggestions/accept", tag = "boards", security(("token" = [])),
    request_body = AcceptBody, responses((status = 200, body = BoardList), (status = 422, body = ErrorBody)))]
async fn accept_suggestions(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<AcceptBody>,
) -> ApiResult<ApiJson<BoardList>> {
    Ok(ApiJson(choices::accept(&state, &user, body).await?))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct QuestionsQuery {
    /// The feed to ask over.
    pub board_id: String,
}

/// Questions to ask the assistant over one feed, grouped by category.
#[utoipa::path(get, path = "/reports/questions", tag = "boards", security(("token" = [])), params(QuestionsQuery),
    responses((status = 200, body = QuestionGroups), (status = 404, body = ErrorBody)))]
async fn feed_questions(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<QuestionsQuery>,
) -> ApiResult<ApiJson<QuestionGroups>> {
    Ok(ApiJson(choices::questions(&state, &user, &query.board_id).await?))
}

/// The user's feeds, each saying whether it includes this source.
#[utoipa::path(get, path = "/source/public/{id}/boards", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the source's id")),
    responses((status = 200, body = SourceBoards), (status = 404, body = ErrorBody)))]
async fn source_boards(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<ApiJson<SourceBoards>> {
    Ok(ApiJson(feeds::source_boards(&state, &user, &id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SourceBoardsBody {
    /// The feeds that should include the source; the user's other feeds stop including it.
    pub boards: Vec<String>,
}

/// Add to Feeds: makes exactly these of the user's feeds include the source.
#[utoipa::path(post, path = "/source/public/{id}/boards", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the source's id")), request_body = SourceBoardsBody,
    responses((status = 200, body = SourceBoards), (status = 404, body = ErrorBody)))]
async fn set_source_boards(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<SourceBoardsBody>,
) -> ApiResult<ApiJson<SourceBoards>> {
    Ok(ApiJson(feeds::set_source_boards(&state, &user, &id, body.boards).await?))
}

/// One of the user's feeds with a page of its documents (newest first, a story once), over
/// everything the user may read now.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TabQuery {
    /// A sub-tab: links, documents, media or webclips; all without.
    pub category_tab: Option<String>,
}

#[utoipa::path(get, path = "/boards/{id}/v2", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the feed's board_id"), TabQuery, Paging),
    responses((status = 200, body = BoardDocumentsResult), (status = 404, body = ErrorBody)))]
async fn board_documents(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
    ApiQuery(tab): ApiQuery<TabQuery>,
    Paging { page, limit }: Paging,
) -> ApiResult<ApiJson<BoardDocumentsResult>> {
    let tab = tab.category_tab.filter(|t| !t.is_empty());
    Ok(ApiJson(documents::documents(&state, &user, &id, tab.as_deref(), page, limit).await?))
}

/// What a draft definition matches (how many, and the newest few); nothing is stored.
#[utoipa::path(post, path = "/boards/preview", tag = "boards", security(("token" = [])), request_body = PreviewBody,
    responses((status = 200, body = Preview), (status = 422, body = ErrorBody)))]
async fn preview_draft(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<PreviewBody>,
) -> ApiResult<ApiJson<Preview>> {
    Ok(ApiJson(documents::preview(&state, &user, body.definition).await?))
}

/// A page of a feed shared into a group, as this member may read it.
#[utoipa::path(get, path = "/channels/{id}/boards/{boardId}/documents", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id"), ("boardId" = String, Path, description = "the feed's board_id"), Paging),
    responses((status = 200, body = Preview), (status = 404, body = ErrorBody)))]
async fn channel_board_documents(
    State(state): State<AppState>,
    user: AuthUser,
    Path((channel_id, board_id)): Path<(String, String)>,
    Paging { page, limit }: Paging,
) -> ApiResult<ApiJson<Preview>> {
    Ok(ApiJson(documents::channel_board_documents(&state, &user, &channel_id, &board_id, page, limit).await?))
}

/// The sources a feed names, with their labels and modes (include, exclude, secondary).
#[utoipa::path(get, path = "/boards/{id}/sources", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the feed's board_id")),
    responses((status = 200, body = FeedSources), (status = 404, body = ErrorBody)))]
async fn board_sources(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<ApiJson<FeedSources>> {
    Ok(ApiJson(refine::sources(&state, &user, &id).await?))
}

/// What a feed's documents are made of: how many, by source, category and company.
#[utoipa::path(get, path = "/boards/{id}/metadata", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the feed's board_id")),
    responses((status = 200, body = FeedMetadataResult), (status = 404, body = ErrorBody)))]
async fn board_metadata(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<ApiJson<FeedMetadataResult>> {
    Ok(ApiJson(refine::metadata(&state, &user, &id).await?))
}

/// Keywords worth adding to a feed, from the titles of its newest documents.
#[utoipa::path(get, path = "/boards/{id}/suggestions", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the feed's board_id")),
    responses((status = 200, body = KeywordSuggestions), (status = 404, body = ErrorBody)))]
async fn board_keyword_suggestions(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<ApiJson<KeywordSuggestions>> {
    Ok(ApiJson(refine::keyword_suggestions(&state, &user, &id).await?))
}

/// Adds a suggested keyword to a feed, included or excluded.
#[utoipa::path(post, path = "/boards/{id}/suggestion", tag = "boards", security(("token" = [])),
    params(("id" = String, Path, description = "the feed's board_id")), request_body = ApplySuggestion,
    responses((status = 200, body = BoardResult), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn apply_board_suggestion(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ApplySuggestion>,
) -> ApiResult<ApiJson<BoardResult>> {
    Ok(ApiJson(refine::apply_suggestion(&state, &user, &id, body).await?))
}

/// Drafts an AI feed from a description (the companies and topics it names); nothing is stored.
#[utoipa::path(post, path = "/boards/ai_smarts", tag = "boards", security(("token" = [])), request_body = SmartsBody,
    responses((status = 200, body = SmartsResult), (status = 422, body = ErrorBody)))]
async fn ai_smarts(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<SmartsBody>,
) -> ApiResult<ApiJson<SmartsResult>> {
    Ok(ApiJson(refine::ai_smarts(&state, &user, body).await?))
}
